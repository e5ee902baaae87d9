/**
 * Bytes written once, as they are made, and read by any number of readers, each from the first chunk
 * and then as the rest arrive: concurrent answers of one menu stream its single build.
 */
export class SharedChunks {
  private readonly chunks: Buffer[] = [];
  private ended = false;
  private failure: Error | null = null;
  private arrival = Promise.withResolvers<void>();

  push(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.wake();
  }

  end(): Buffer {
    this.ended = true;
    this.wake();
    return Buffer.concat(this.chunks);
  }

  fail(err: unknown): void {
    this.failure = err instanceof Error ? err : new Error(String(err));
    this.wake();
  }

  async *read(): AsyncGenerator<Buffer> {
    for (let next = 0; ;) {
      if (next < this.chunks.length) yield this.chunks[next++]!;
      else if (this.failure) throw this.failure;
      else if (this.ended) return;
      else await this.arrival.promise;
    }
  }

  private wake(): void {
    const { resolve } = this.arrival;
    this.arrival = Promise.withResolvers<void>();
    resolve();
  }
}
