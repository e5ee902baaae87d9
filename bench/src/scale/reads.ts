import { median } from '@partner/bench-kit';

// A client's reads through the gateway, timed: syncing items (full and incremental) and the menu (304
// and 200), as an integrator's code would make them.

export interface Api {
  base: string;
  auth: Record<string, string>;
  restaurantId: string;
}

interface SyncPage {
  data: unknown[];
  meta: { nextCursor: string | null; syncWindowEnd: string };
}

export interface Sync {
  items: number;
  seconds: number;
  /** Feed back as `updatedAfter` for the next incremental sync. */
  windowEnd: string;
}

/** A sync as a client runs it, pages of 1,000 following nextCursor: the whole menu, or what changed since `updatedAfter`. */
export async function sync(api: Api, updatedAfter?: string): Promise<Sync> {
  const started = performance.now();
  let items = 0;
  let cursor: string | null = null;
  let windowEnd: string;
  do {
    const query = new URLSearchParams({ limit: '1000' });
    if (updatedAfter) query.set('updatedAfter', updatedAfter);
    if (cursor) query.set('cursor', cursor);
    const res = await fetch(`${api.base}/v1/partner/restaurants/${api.restaurantId}/items?${query.toString()}`, { headers: api.auth });
    if (!res.ok) throw new Error(`sync page: ${res.status} ${await res.text()}`);
    const page = (await res.json()) as SyncPage;
    items += page.data.length;
    cursor = page.meta.nextCursor;
    windowEnd = page.meta.syncWindowEnd;
  } while (cursor);
  return { items, seconds: (performance.now() - started) / 1000, windowEnd };
}

export interface MenuAnswer {
  ms: number;
  status: number;
  bytes: number;
  etag: string | null;
  /** The error code of an error answer (e.g. a menu too large to serve whole). */
  code: string | null;
}

/** One menu request, read to its last byte. */
export async function getMenu(api: Api, ifNoneMatch?: string): Promise<MenuAnswer> {
  const started = performance.now();
  const res = await fetch(`${api.base}/v1/partner/restaurants/${api.restaurantId}/menu`, {
    headers: { ...api.auth, ...(ifNoneMatch ? { 'if-none-match': ifNoneMatch } : {}) },
  });
  const body = Buffer.from(await res.arrayBuffer());
  const ms = performance.now() - started;
  const code = res.status >= 400 ? ((JSON.parse(body.toString()) as { error?: { code?: string } }).error?.code ?? null) : null;
  return { ms, status: res.status, bytes: body.length, etag: res.headers.get('etag'), code };
}

/**
 * Up to `count` sequential menu requests, stopping early (after at least 3) once `budgetMs` is spent:
 * a 200 of a large menu may take seconds. The median answer, with the statuses seen.
 */
export async function menuLatency(api: Api, count: number, budgetMs: number, ifNoneMatch?: string) {
  const answers: MenuAnswer[] = [];
  const started = performance.now();
  while (answers.length < count && (answers.length < 3 || performance.now() - started < budgetMs))
    answers.push(await getMenu(api, ifNoneMatch));
  const statuses = [...new Set(answers.map((answer) => (answer.code ? `${answer.status} ${answer.code}` : String(answer.status))))];
  return { p50: median(answers.map((answer) => answer.ms)), statuses, bytes: answers.at(-1)!.bytes, requests: answers.length };
}
