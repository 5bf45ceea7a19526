import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Readable } from 'node:stream';
import { metered } from './metered.ts';
import type { FileStore, StoredFile } from './store.ts';

/**
 * Files in a folder (DATA_DIR/files by default). An upload is written to a temporary name in the
 * same folder and renamed into place once complete, so a reader never sees half a file and a
 * refused or broken upload leaves nothing behind.
 */
export class LocalFileStore implements FileStore {
  readonly kind = 'local' as const;
  private readonly root: string;

  constructor(root: string) {
    this.root = resolve(root);
  }

  /** Keys are ours (ids and versions), but a key that would leave the folder is refused anyway. */
  private pathOf(key: string): string {
    const path = resolve(this.root, key);
    if (!path.startsWith(this.root + sep)) throw new Error(`file key ${JSON.stringify(key)} leaves the store`);
    return path;
  }

  async put(key: string, body: Readable, options: { maxBytes: number; contentType?: string }): Promise<StoredFile> {
    const path = this.pathOf(key);
    await mkdir(dirname(path), { recursive: true, mode: 0o700 });
    const partial = join(dirname(path), `.upload-${randomBytes(8).toString('hex')}`);
    const meter = metered(body, options.maxBytes);
    try {
      await pipeline(meter, createWriteStream(partial, { mode: 0o600 }));
      await rename(partial, path);
    } catch (err) {
      await rm(partial, { force: true });
      throw err;
    }
    return { size: meter.bytes, sha256: meter.digest() };
  }

  async open(key: string): Promise<Readable | undefined> {
    const stream = createReadStream(this.pathOf(key));
    // Opening is asynchronous: wait for it, so a missing file is "nothing here", not a stream error later.
    return new Promise((resolve, reject) => {
      stream.once('open', () => resolve(stream));
      stream.once('error', (err: NodeJS.ErrnoException) => (err.code === 'ENOENT' ? resolve(undefined) : reject(err)));
    });
  }

  async remove(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }
}
