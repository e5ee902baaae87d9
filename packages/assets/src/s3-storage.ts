import type { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsCommand,
  ListObjectsV2Command,
  NoSuchBucket,
  NotFound,
  NoSuchKey,
  PutObjectCommand,
  S3Client,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { assertSafeStorageKey, type AssetStorage, type StoredFile } from './storage.js';

/** A store that names no date: take the file for a fresh one, which the sweep leaves alone. */
const unknownDate = () => new Date();

/**
 * An upload's deadline grows with its size: `timeoutMs` for the store to answer, plus the time the
 * bytes take at this rate. A store slower than this is failing, however large the file.
 */
export const UPLOAD_FLOOR_BYTES_PER_SECOND = 1024 * 1024;

export interface S3StorageOptions {
  bucket: string;
  region: string;
  /** An S3-compatible store (MinIO, R2, Ceph...): its URL. Unset: AWS's own endpoint for the region. */
  endpoint?: string;
  /** `bucket` in the path instead of the host name; most self-hosted stores need it. */
  forcePathStyle?: boolean;
  /** Prepended to every key (`models/`), so the bucket can hold other things. */
  prefix?: string;
  /** The longest any one call may take until the store answers (a read's body then streams on). */
  timeoutMs: number;
  /**
   * A read's body whose bytes stop coming for this long is cut (a minute by default). Not `timeoutMs`:
   * the body waits on the viewer too (backpressure), and a viewer may pause longer than a store answers.
   */
  stalledBodyMs?: number;
  /** Tests only; production takes the SDK's standard chain (environment, shared files, the pod's role). */
  credentials?: S3ClientConfig['credentials'];
}

/**
 * Files in an S3-compatible bucket through the AWS SDK. Every call is bounded by `timeoutMs` (the SDK's
 * retries, their waits and the credentials' lookup included; an upload gets more, by its size); a store
 * that does not answer in time rejects with a `TimeoutError`, which the services answer as 503 with
 * Retry-After like any other dependency fault.
 */
export class S3Storage implements AssetStorage {
  private readonly client: S3Client;
  private readonly prefix: string;

  constructor(private readonly options: S3StorageOptions) {
    this.prefix = options.prefix ?? '';
    this.client = new S3Client({
      region: options.region,
      endpoint: options.endpoint,
      forcePathStyle: options.forcePathStyle ?? false,
      credentials: options.credentials,
      // Checksums only where the API demands them: the SDK's default CRC headers (since 3.729) are
      // refused or mishandled by several S3-compatible stores, and console hashes every file anyway.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      requestHandler: {
        connectionTimeout: options.timeoutMs,
        // The socket's idle timeout bounds a body that stalls mid-stream, which the per-call deadline cannot.
        socketTimeout: options.stalledBodyMs ?? 60_000,
        // No cap on sockets (the SDK's default is 50): a download holds its socket while the viewer reads,
        // so slow viewers would queue every other call, the readiness probe's too, behind them. The
        // catalog's own connections bound how many there are.
        httpAgent: { maxSockets: Infinity },
        httpsAgent: { maxSockets: Infinity },
      },
    });
  }

  /**
   * Sends one command under the deadline. The deadline ends when the answer arrives: a read's body
   * streams on after it, and aborting then would cut the download.
   */
  private async send<T>(run: (abortSignal: AbortSignal) => Promise<T>, timeoutMs = this.options.timeoutMs): Promise<T> {
    const controller = new AbortController();
    const timer = setTimeout(
      () => controller.abort(new DOMException(`the object store did not answer within ${timeoutMs} ms`, 'TimeoutError')),
      timeoutMs,
    );
    // The SDK heeds the signal only on the wire: not while it looks up credentials (a metadata service
    // that hangs) nor while it waits between retries. The race bounds those too.
    const deadline = new Promise<never>((_resolve, reject) =>
      controller.signal.addEventListener('abort', () => reject(controller.signal.reason as Error), { once: true }),
    );
    try {
      return await Promise.race([run(controller.signal), deadline]);
    } catch (err) {
      // The SDK reports an abort as its own AbortError; the reason says it was our deadline.
      throw controller.signal.aborted ? controller.signal.reason : err;
    } finally {
      clearTimeout(timer);
    }
  }

  private objectKey(key: string): string {
    return this.prefix + assertSafeStorageKey(key);
  }

  async put(key: string, data: Buffer): Promise<void> {
    const transferMs = Math.ceil((data.length / UPLOAD_FLOOR_BYTES_PER_SECOND) * 1000);
    await this.send(
      (abortSignal) =>
        this.client.send(new PutObjectCommand({ Bucket: this.options.bucket, Key: this.objectKey(key), Body: data }), { abortSignal }),
      this.options.timeoutMs + transferMs,
    );
  }

  /**
   * One listing of at most one key under the prefix: the bucket is there and the identity may list it
   * (which lookups rely on). The first version of ListObjects, which every S3-compatible store speaks,
   * and whose cut-short answer needs no continuation token (which the test server cannot make).
   */
  async check(): Promise<string | null> {
    try {
      await this.send((abortSignal) =>
        this.client.send(new ListObjectsCommand({ Bucket: this.options.bucket, Prefix: this.prefix || undefined, MaxKeys: 1 }), {
          abortSignal,
        }),
      );
      return null;
    } catch (err) {
      if (err instanceof NoSuchBucket) return 'no such bucket';
      if ((err as { name?: string }).name === 'AccessDenied') return 'access denied';
      throw err;
    }
  }

  async stat(key: string): Promise<StoredFile | null> {
    try {
      const head = await this.send((abortSignal) =>
        this.client.send(new HeadObjectCommand({ Bucket: this.options.bucket, Key: this.objectKey(key) }), { abortSignal }),
      );
      return { key, size: head.ContentLength ?? 0, lastModified: head.LastModified ?? unknownDate() };
    } catch (err) {
      if (err instanceof NotFound || err instanceof NoSuchKey) return null;
      throw err;
    }
  }

  async read(key: string, range?: { start: number; end: number }): Promise<Readable> {
    const object = await this.send((abortSignal) =>
      this.client.send(
        new GetObjectCommand({
          Bucket: this.options.bucket,
          Key: this.objectKey(key),
          Range: range ? `bytes=${range.start}-${range.end}` : undefined,
        }),
        { abortSignal },
      ),
    );
    // In Node the body is the response's IncomingMessage; destroying it frees the connection.
    return object.Body as Readable;
  }

  async delete(key: string): Promise<void> {
    await this.send((abortSignal) =>
      this.client.send(new DeleteObjectCommand({ Bucket: this.options.bucket, Key: this.objectKey(key) }), { abortSignal }),
    );
  }

  async *list(): AsyncIterable<StoredFile> {
    let continuationToken: string | undefined;
    do {
      const page = await this.send((abortSignal) =>
        this.client.send(
          new ListObjectsV2Command({ Bucket: this.options.bucket, Prefix: this.prefix || undefined, ContinuationToken: continuationToken }),
          { abortSignal },
        ),
      );
      for (const object of page.Contents ?? []) {
        const key = object.Key?.slice(this.prefix.length);
        // Only keys this driver could have written: a "folder" below the prefix is someone else's.
        if (!key || key.includes('/')) continue;
        yield { key, size: object.Size ?? 0, lastModified: object.LastModified ?? unknownDate() };
      }
      continuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (continuationToken);
  }

  /** Closes the client's connections. */
  close(): void {
    this.client.destroy();
  }
}
