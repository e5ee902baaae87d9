import { randomUUID } from 'node:crypto';
import { randomBase62 } from '@partner/auth';

export const newId = (prefix: string, length = 24): string => `${prefix}_${randomBase62(length)}`;

/** What a request id is: ours, or the gateway's as a service receives it. Nothing in it JSON would escape. */
const REQUEST_ID = /^req_[A-Za-z0-9]{8,64}$/;
export const isRequestId = (value: string): boolean => REQUEST_ID.test(value);

/** Request ids are made on every request: 122 random bits from the CSPRNG's cached pool, as hex. */
export const newRequestId = (): string => `req_${randomUUID().replaceAll('-', '')}`;
