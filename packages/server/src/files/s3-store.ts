import { DeleteObjectCommand, GetObjectCommand, NoSuchKey, S3Client } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { Readable } from 'node:stream';
import type { S3Settings } from '../config.ts';
import { metered } from './metered.ts';
import type { FileStore, StoredFile } from './store.ts';

/**
 * Files in an S3-compatible bucket (AWS S3, MinIO, R2), so every API process reads and writes the
 * same store. Uploads go up as a multipart upload fed from the request stream: at most
 * `queueSize` parts of `partSize` bytes are in memory at once, whatever the file's size.
 */
export class S3FileStore implements FileStore {
  readonly kind = 's3' as const;
  private readonly client: S3Client;
  private readonly settings: S3Settings;

  constructor(settings: S3Settings) {
    this.settings = settings;
    this.client = new S3Client({
      region: settings.region,
      ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
      forcePathStyle: settings.forcePathStyle,
      // Checksums only where S3 demands them: several S3-compatible stores (and s3rver) do not
      // answer the CRC32 trailers the SDK sends by default; the upload is hashed by us anyway.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      ...(settings.accessKeyId && settings.secretAccessKey
        ? { credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey } }
        : {}),
    });
  }

  private key(key: string) {
    return `${this.settings.prefix}${key}`;
  }

  async put(key: string, body: Readable, options: { maxBytes: number; contentType: string }): Promise<StoredFile> {
    const meter = metered(body, options.maxBytes);
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.settings.bucket, Key: this.key(key), Body: meter, ContentType: options.contentType },
      // 8 MB parts, two in flight: about 16 MB held per upload (S3's smallest part is 5 MB).
      partSize: 8 * 1024 * 1024,
      queueSize: 2,
      leavePartsOnError: false,
    });
    try {
      // A refused upload (over the limit, or the client went away) fails the meter, so the
      // upload's read of it; the multipart upload is then aborted, so no part is left in the bucket.
      await upload.done();
    } catch (err) {
      await upload.abort().catch(() => undefined);
      throw meter.errored ?? err;
    }
    return { size: meter.bytes, sha256: meter.digest() };
  }

  async open(key: string): Promise<Readable | undefined> {
    try {
      const answer = await this.client.send(new GetObjectCommand({ Bucket: this.settings.bucket, Key: this.key(key) }));
      return answer.Body as Readable;
    } catch (err) {
      if (err instanceof NoSuchKey || (err as { name?: string }).name === 'NoSuchKey') return undefined;
      throw err;
    }
  }

  async remove(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.settings.bucket, Key: this.key(key) }));
  }
}
