import { createHash } from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';
import { FileTooLarge } from './store.ts';

/**
 * A pass-through that counts and hashes the bytes of an upload on their way to the store, and
 * fails the stream the moment they pass `maxBytes`: the limit holds without a Content-Length
 * (chunked uploads) and without buffering anything.
 */
export class MeteredStream extends Transform {
  /** Bytes through so far (not `size`: the AWS SDK reads a body's `size` as its total length). */
  bytes = 0;
  private readonly hash = createHash('sha256');

  private readonly maxBytes: number;

  constructor(maxBytes: number) {
    super();
    this.maxBytes = maxBytes;
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback) {
    this.bytes += chunk.length;
    if (this.bytes > this.maxBytes) return done(new FileTooLarge(this.maxBytes));
    this.hash.update(chunk);
    done(null, chunk);
  }

  digest(): string {
    return this.hash.digest('hex');
  }
}
