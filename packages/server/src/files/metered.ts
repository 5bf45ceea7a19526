import { createHash } from 'node:crypto';
import { Transform, type Readable, type TransformCallback } from 'node:stream';
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

/**
 * The upload through a meter, without tying the two together as `pipeline` would: a refused
 * upload must not destroy the request stream, or the client would lose the 413 answer. The rest
 * of a refused body is read and dropped (the server's lingering close ends a client that goes on
 * too long); a request that breaks off fails the meter, and so the store's write.
 */
export function metered(body: Readable, maxBytes: number): MeteredStream {
  const meter = new MeteredStream(maxBytes);
  body.once('error', (err) => meter.destroy(err));
  body.once('aborted', () => meter.destroy(new Error('the upload was broken off')));
  meter.once('error', () => {
    body.unpipe(meter);
    body.resume();
  });
  body.pipe(meter);
  return meter;
}
