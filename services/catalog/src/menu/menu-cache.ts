import { LRUCache } from 'lru-cache';
import type { MenuBuildOutput } from './menu-build.js';
import { SharedChunks } from './shared-chunks.js';

/** A menu answer: whole bytes from the cache, or the chunks of a build as they are made. */
export type MenuBytes = { etag: string; body: Buffer } | { etag: string; chunks: AsyncIterable<Buffer> };

interface BuiltMenu {
  etag: string;
  body: Buffer;
}

interface Building {
  etag: string;
  chunks: SharedChunks;
}

export type MenuBuilder = (restaurantId: string, out: MenuBuildOutput) => Promise<void>;

/**
 * Menus built once per version. Finished menus are kept as bytes, least recently used first out, within
 * `maxBytes` in all; a request for the version being built joins that build and streams its chunks as
 * they come (single flight), so N concurrent requests for a changed menu cost one build.
 */
export class MenuCache {
  private readonly built: LRUCache<string, BuiltMenu>;
  private readonly building = new Map<string, Promise<Building>>();

  constructor(private readonly options: { maxBytes: number; build: MenuBuilder; onLookup?: (hit: boolean) => void }) {
    this.built = new LRUCache({ maxSize: options.maxBytes, sizeCalculation: (menu) => Math.max(1, menu.body.length) });
  }

  /** The menu whose current ETag is `etag` (a build may answer a newer one: its own ETag says which). */
  async get(restaurantId: string, etag: string): Promise<MenuBytes> {
    const hit = this.built.get(restaurantId);
    this.options.onLookup?.(hit?.etag === etag);
    if (hit?.etag === etag) return hit;
    const key = `${restaurantId} ${etag}`;
    let building = this.building.get(key);
    if (!building) {
      building = this.start(restaurantId, () => this.building.delete(key));
      this.building.set(key, building);
    }
    const { etag: built, chunks } = await building;
    return { etag: built, chunks: chunks.read() };
  }

  /** Starts a build; resolves once its snapshot is taken (its ETag known), calls `settled` once it is over. */
  private start(restaurantId: string, settled: () => void): Promise<Building> {
    const chunks = new SharedChunks();
    const begun = Promise.withResolvers<Building>();
    this.options
      .build(restaurantId, { begin: (etag) => begun.resolve({ etag, chunks }), push: (chunk) => chunks.push(chunk) })
      .then(async () => {
        const { etag } = await begun.promise;
        this.built.set(restaurantId, { etag, body: chunks.end() });
      })
      .catch((err: unknown) => {
        begun.reject(err);
        chunks.fail(err);
      })
      .finally(settled);
    return begun.promise;
  }
}
