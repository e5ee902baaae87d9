/** One page of a list (spec 2.1); `meta` may carry more than the cursor (item listings do). */
export interface Page<T, M extends { nextCursor: string | null } = { nextCursor: string | null }> {
  data: T[];
  meta: M;
}

/**
 * Every element of a cursor-paginated list, fetched a page at a time as you iterate:
 * `for await (const item of client.items.list(restaurantId)) …`. Nothing is fetched before the loop
 * starts; breaking out of it fetches no further page. Iterating again starts from the first page.
 */
export class PageIterator<T, M extends { nextCursor: string | null } = { nextCursor: string | null }> implements AsyncIterable<T> {
  constructor(private readonly fetchPage: (cursor: string | undefined) => Promise<Page<T, M>>) {}

  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    for await (const page of this.pages()) yield* page.data;
  }

  /** The pages themselves, for their `meta`. */
  async *pages(): AsyncGenerator<Page<T, M>, void, undefined> {
    let cursor: string | undefined;
    do {
      const page = await this.fetchPage(cursor);
      yield page;
      cursor = page.meta.nextCursor ?? undefined;
    } while (cursor);
  }

  /** Every element in one array (mind the size of what you list). */
  async toArray(): Promise<T[]> {
    const all: T[] = [];
    for await (const element of this) all.push(element);
    return all;
  }
}
