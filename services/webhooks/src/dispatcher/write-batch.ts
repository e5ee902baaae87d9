/**
 * Items written together by the dispatcher's next statement (successes to record, attempts to give
 * back): `write` takes them all, and a write that fails puts them back for the next try.
 */
export class WriteBatch<T> {
  private items: T[] = [];

  get length(): number {
    return this.items.length;
  }

  add(...items: T[]): void {
    this.items.push(...items);
  }

  async write<R>(write: (items: readonly T[]) => Promise<R>): Promise<R> {
    const items = this.items;
    this.items = [];
    try {
      return await write(items);
    } catch (err) {
      this.items.push(...items);
      throw err;
    }
  }
}
