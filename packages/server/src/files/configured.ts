import { join } from 'node:path';
import type { Config } from '../config.ts';
import { LocalFileStore } from './local-store.ts';
import { S3FileStore } from './s3-store.ts';
import type { FileStore } from './store.ts';

/** The store the settings name: S3 when S3_BUCKET is set, else DATA_DIR/files. */
export function fileStoreFromConfig(config: Pick<Config, 'dataDir' | 'files'>): FileStore {
  return config.files.s3 ? new S3FileStore(config.files.s3) : new LocalFileStore(join(config.dataDir, 'files'));
}
