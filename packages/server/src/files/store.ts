import type { Readable } from 'node:stream';

/**
 * Where uploaded files live (docs/files.md): a folder under DATA_DIR by default (local-store.ts),
 * S3-compatible object storage when S3_* is set (s3-store.ts), so several processes share one
 * store. Both take the upload as a stream and never hold a whole file in memory.
 */
export interface FileStore {
  /** `local` or `s3`, for logs and docs. */
  readonly kind: 'local' | 's3';
  /**
   * Stores `body` under `key`. Refuses (FileTooLarge) as soon as more than `maxBytes` arrived; then
   * nothing is left under `key`. Resolves with the stored size and the content's SHA-256 (hex).
   */
  put(key: string, body: Readable, options: { maxBytes: number; contentType: string }): Promise<StoredFile>;
  /** The stored bytes as a stream; undefined when nothing is stored under `key`. */
  open(key: string): Promise<Readable | undefined>;
  /** Removes what is stored under `key`; removing nothing is not an error. */
  remove(key: string): Promise<void>;
}

export interface StoredFile {
  size: number;
  sha256: string;
}

/** The upload went past the size limit; `limit` is that limit in bytes. */
export class FileTooLarge extends Error {
  readonly limit: number;

  constructor(limit: number) {
    super(`The file is larger than the limit of ${limit} bytes.`);
    this.limit = limit;
  }
}
