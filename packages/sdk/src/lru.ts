/**
 * A Map that keeps the `max` entries used last. Not lru-cache, which the services use: its types need
 * @types/node, and this package must typecheck with web platform types alone.
 */
export class LruMap<K, V> {
  readonly #entries = new Map<K, V>();

  constructor(private readonly max: number) {}

  get(key: K): V | undefined {
    const value = this.#entries.get(key);
    if (value !== undefined) {
      this.#entries.delete(key);
      this.#entries.set(key, value);
    }
    return value;
  }

  set(key: K, value: V): void {
    this.#entries.delete(key);
    this.#entries.set(key, value);
    if (this.#entries.size > this.max) this.#entries.delete(this.#entries.keys().next().value!);
  }
}
