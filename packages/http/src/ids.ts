import { randomUUID } from 'node:crypto';
import { randomBase62 } from '@partner/auth';

export const newId = (prefix: string, length = 24): string => `${prefix}_${randomBase62(length)}`;

/** Request ids are made on every request: 122 random bits from the CSPRNG's cached pool, as hex. */
export const newRequestId = (): string => `req_${randomUUID().replaceAll('-', '')}`;
