import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';
import type { S3Settings } from '../config.ts';
import { freePort } from './processes.ts';

/**
 * A local S3-compatible server for tests (the `s3rver` package) on a free loopback port, with one
 * bucket, keeping its objects in a temporary folder. s3rver speaks the S3 REST API the AWS SDK
 * uses (objects, multipart uploads, deletes) but checks no signature, policy or quota.
 */
export interface TestS3 {
  settings: S3Settings;
  directory: string;
  stop(): Promise<void>;
}

export async function startTestS3(bucket = 'creator-files'): Promise<TestS3> {
  const directory = await mkdtemp(join(tmpdir(), 's3rver-'));
  const port = await freePort();
  const server = new S3rver({ port, address: '127.0.0.1', silent: true, directory, configureBuckets: [{ name: bucket, configs: [] }] });
  await server.run();
  return {
    settings: {
      bucket, region: 'us-east-1', endpoint: `http://127.0.0.1:${port}`, forcePathStyle: true, prefix: 'test/',
      // s3rver's fixed credentials (it does not check them, but the SDK signs with something).
      accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER',
    },
    directory,
    async stop() {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
