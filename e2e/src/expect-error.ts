import { expect } from 'vitest';
import { ZErrorBody } from '@partner/contracts';

interface ResponseLike {
  status: number;
  body: unknown;
  headers: Record<string, string | string[] | undefined>;
}

/** The spec's error envelope, with the status and code expected and the request id of the header. */
export function expectError(res: ResponseLike, status: number, code: string): void {
  expect({ status: res.status, body: res.body }).toMatchObject({ status, body: { error: { code } } });
  const body = ZErrorBody.parse(res.body);
  expect(body.error.message.length).toBeGreaterThan(0);
  expect(body.error.requestId).toMatch(/^req_/);
  expect(res.headers['x-request-id']).toBe(body.error.requestId);
}
