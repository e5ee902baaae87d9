// The dashboard's only way to console: same-origin `/console/*`, the session cookie, and the session's
// CSRF token on every change.

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly param?: string,
  ) {
    super(message);
  }
}

let csrfToken: string | null = null;
/** Set from every session answer: changes carry it in X-CSRF-Token. */
export const setCsrfToken = (token: string | null) => void (csrfToken = token);

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** The whole envelope (`{ data, meta }`) and the status; a 4xx or 5xx throws an ApiError with the error's code. */
export async function call<T = unknown>(
  method: Method,
  path: string,
  body?: unknown,
): Promise<{ data: T; meta?: Record<string, unknown>; status: number }> {
  const headers: Record<string, string> = {};
  if (method !== 'GET' && csrfToken) headers['X-CSRF-Token'] = csrfToken;
  let payload: BodyInit | undefined;
  if (body instanceof FormData) payload = body;
  else if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  let res: Response;
  try {
    res = await fetch(`/console${path}`, { method, headers, body: payload, credentials: 'same-origin' });
  } catch {
    throw new ApiError(0, 'network_error', 'The dashboard could not be reached. Check your connection and retry.');
  }
  const json = (await res.json().catch(() => null)) as {
    data: T;
    meta?: Record<string, unknown>;
    error?: { code: string; message: string; param?: string };
  } | null;
  if (!res.ok || !json) {
    throw new ApiError(
      res.status,
      json?.error?.code ?? 'unexpected_answer',
      json?.error?.message ?? `The server answered ${res.status}.`,
      json?.error?.param,
    );
  }
  return { ...json, status: res.status };
}

export const get = async <T>(path: string): Promise<T> => (await call<T>('GET', path)).data;
export const send = async <T>(method: Exclude<Method, 'GET'>, path: string, body?: unknown): Promise<T> =>
  (await call<T>(method, path, body)).data;
