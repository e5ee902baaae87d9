import { expect } from 'vitest';
import { ZErrorBody } from '@partner/contracts';

export interface ResponseLike {
  status: number;
  body: unknown;
  headers: Record<string, string | string[] | undefined>;
}

/**
 * The spec's error envelope `{ error: { code, message, requestId, param? } }` and nothing else in it,
 * with the expected status and code, a message, and the request id the response's header carries.
 */
export function expectError(res: ResponseLike, status: number, code: string, param?: string): void {
  expect({ status: res.status, code: (res.body as { error?: { code?: string } } | undefined)?.error?.code }).toEqual({ status, code });
  const { error } = ZErrorBody.strict().parse(res.body);
  expect(error.message.length).toBeGreaterThan(0);
  expect(error.requestId).toMatch(/^req_[A-Za-z0-9]{8,64}$/);
  expect(res.headers['x-request-id']).toBe(error.requestId);
  if (param !== undefined) expect(error.param).toBe(param);
}
