import { createHash } from 'node:crypto';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  CopyObjectCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { assertSafeKey, type Storage } from './storage.js';

export interface S3Settings {
  bucket: string;
  endpoint?: string | undefined;
  region: string;
  accessKeyId?: string | undefined;
  secretAccessKey?: string | undefined;
  forcePathStyle: boolean;
}

const TYPES: Record<string, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  gif: 'image/gif',
};

/** Photos are read back and served by the console; the type helps anyone browsing the bucket. */
function contentTypeOf(key: string): string {
  return TYPES[key.split('.').pop()?.toLowerCase() ?? ''] ?? 'application/octet-stream';
}

/** The same failure a missing local file gives (callers test `code === 'ENOENT'`). */
function notFound(key: string, cause: unknown): NodeJS.ErrnoException {
  const err: NodeJS.ErrnoException = new Error(`no stored object ${key}`, { cause });
  err.code = 'ENOENT';
  return err;
}

function isNotFound(err: unknown): boolean {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === 'NoSuchKey' || e?.name === 'NotFound' || e?.$metadata?.httpStatusCode === 404;
}

/** Multipart parts of 5 MB (the S3 minimum), two in flight: a 25 MB photo never sits whole in memory. */
const PART_SIZE = 5 * 1024 * 1024;

/**
 * Photos in an S3-compatible bucket (AWS, MinIO, Ceph, Garage …) under the same keys as the
 * local folder. Streams are uploaded in parts; reads stream from the bucket.
 */
export class S3Storage implements Storage {
  readonly client: S3Client;
  readonly bucket: string;

  constructor(settings: S3Settings) {
    this.bucket = settings.bucket;
    this.client = new S3Client({
      region: settings.region,
      forcePathStyle: settings.forcePathStyle,
      ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
      ...(settings.accessKeyId && settings.secretAccessKey
        ? { credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey } }
        : {}),
      // Checksums only where S3 requires them: many S3-compatible stores reject the newer
      // default (aws-chunked uploads with trailing CRC32).
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  async put(key: string, body: Readable | Buffer): Promise<{ size: number }> {
    assertSafeKey(key);
    const ContentType = contentTypeOf(key);
    if (Buffer.isBuffer(body)) {
      await this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: body, ContentLength: body.length, ContentType }));
      return { size: body.length };
    }
    let size = 0;
    const counter = new Transform({
      transform(chunk: Buffer, _enc, done) {
        size += chunk.length;
        done(null, chunk);
      },
    });
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.bucket, Key: key, Body: counter, ContentType },
      partSize: PART_SIZE,
      queueSize: 2,
      leavePartsOnError: false,
    });
    await Promise.all([pipeline(body, counter), upload.done()]);
    return { size };
  }

  async get(key: string, range?: { start: number; end: number }): Promise<Readable> {
    assertSafeKey(key);
    try {
      const res = await this.client.send(
        new GetObjectCommand({ Bucket: this.bucket, Key: key, ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}) }),
      );
      return res.Body as Readable;
    } catch (err) {
      if (isNotFound(err)) throw notFound(key, err);
      throw err;
    }
  }

  async stat(key: string): Promise<{ size: number; mtimeMs: number } | null> {
    assertSafeKey(key);
    try {
      const res = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return { size: res.ContentLength ?? 0, mtimeMs: res.LastModified?.getTime() ?? 0 };
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    assertSafeKey(key);
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  async check(): Promise<void> {
    await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }), { abortSignal: AbortSignal.timeout(5000) });
  }

  /**
   * Stores a whole file with its MD5 sent along: the store refuses it if the bytes it received
   * differ. Returns the MD5 (hex), which S3 reports back as the ETag of a single-part object.
   */
  async putChecked(key: string, body: Buffer): Promise<string> {
    assertSafeKey(key);
    const md5 = createHash('md5').update(body).digest();
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.bucket,
        Key: key,
        Body: body,
        ContentLength: body.length,
        ContentMD5: md5.toString('base64'),
        ContentType: contentTypeOf(key),
      }),
    );
    return md5.toString('hex');
  }

  /** Size and ETag (quotes removed) of a stored object, or null. */
  async head(key: string): Promise<{ size: number; etag: string } | null> {
    assertSafeKey(key);
    try {
      const res = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return { size: res.ContentLength ?? 0, etag: (res.ETag ?? '').replace(/"/g, '') };
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  }

  /** A copy made by the store itself: the bytes never pass through this server. */
  async copy(from: string, to: string): Promise<void> {
    assertSafeKey(from);
    assertSafeKey(to);
    const source = `${this.bucket}/${from.split('/').map(encodeURIComponent).join('/')}`;
    try {
      await this.client.send(
        new CopyObjectCommand({
          Bucket: this.bucket,
          Key: to,
          CopySource: source,
          ContentType: contentTypeOf(to),
          MetadataDirective: 'REPLACE',
        }),
      );
    } catch (err) {
      if (isNotFound(err)) throw notFound(from, err);
      throw err;
    }
  }

  /** Every key under a prefix with its size (used to check a storage migration). */
  async *list(prefix = ''): AsyncGenerator<{ key: string; size: number }> {
    let ContinuationToken: string | undefined;
    do {
      const page = await this.client.send(new ListObjectsV2Command({ Bucket: this.bucket, Prefix: prefix, ContinuationToken }));
      for (const item of page.Contents ?? []) if (item.Key) yield { key: item.Key, size: item.Size ?? 0 };
      ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (ContinuationToken);
  }

  localPath(): string {
    throw new Error('S3 storage has no local paths');
  }

  close(): void {
    this.client.destroy();
  }
}
