import fs from 'node:fs';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { cacheControlFor } from './cache-control.js';
import { assertSafeKey, isElsewhere, type ByteRange, contentTypeFor, type Storage, type StoredObject } from './storage.js';

export interface S3StorageOptions {
  endpoint?: string;
  bucket: string;
  region: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  forcePathStyle: boolean;
  /** Where browsers fetch objects directly (a CDN or the bucket's public URL); null: the API proxies. */
  publicBaseUrl: string | null;
}

/** S3 allows at most this many keys in one DeleteObjects call. */
const DELETE_BATCH = 1000;
/**
 * Multipart part size. Upload buffers at most partSize x queueSize bytes per upload, so memory stays
 * flat however large the file; 10,000 parts of 8 MiB allow objects up to 80 GB.
 */
const PART_SIZE = 8 * 1024 * 1024;
const QUEUE_SIZE = 2;

/** Media in an S3-compatible bucket (AWS, MinIO, R2, Ceph...), shared by every API and worker process. */
export class S3Storage implements Storage {
  readonly kind = 's3' as const;
  private readonly client: S3Client;
  private readonly bucket: string;

  constructor(private readonly opts: S3StorageOptions) {
    this.bucket = opts.bucket;
    this.client = new S3Client({
      endpoint: opts.endpoint,
      region: opts.region,
      forcePathStyle: opts.forcePathStyle,
      credentials: opts.accessKeyId && opts.secretAccessKey ? { accessKeyId: opts.accessKeyId, secretAccessKey: opts.secretAccessKey } : undefined,
      // Many S3-compatible servers reject or mangle the SDK's default CRC checksums; send and check
      // them only where the API requires them.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  /**
   * Streams body up as a multipart upload. S3 makes an object visible only when the upload
   * completes, and Upload aborts the multipart upload when the body fails, so a broken stream
   * leaves nothing behind.
   */
  async put(key: string, body: Readable | Buffer, contentType?: string): Promise<StoredObject> {
    assertSafeKey(key);
    const type = contentType ?? contentTypeFor(key);
    let size = 0;
    let sourceError: unknown;
    let payload: Readable | Buffer;
    if (Buffer.isBuffer(body)) {
      size = body.length;
      payload = body;
    } else {
      payload = Readable.from(
        (async function* count() {
          try {
            for await (const chunk of body) {
              const buf = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
              size += buf.length;
              yield buf;
            }
          } catch (err) {
            sourceError = err;
            throw err;
          }
        })(),
      );
    }
    const upload = new Upload({
      client: this.client,
      partSize: PART_SIZE,
      queueSize: QUEUE_SIZE,
      leavePartsOnError: false,
      params: { Bucket: this.bucket, Key: key, Body: payload, ContentType: type, CacheControl: cacheControlFor(key) },
    });
    try {
      await upload.done();
    } catch (err) {
      // When the body broke, that is the error to report, not a failure to abort the upload after it.
      throw sourceError ?? err;
    }
    return { size, contentType: type };
  }

  async putFile(key: string, filePath: string, contentType?: string): Promise<StoredObject> {
    return this.put(key, fs.createReadStream(filePath), contentType);
  }

  async download(key: string, filePath: string): Promise<void> {
    const body = await this.read(key);
    await pipeline(body, fs.createWriteStream(filePath));
  }

  async stat(key: string): Promise<StoredObject | null> {
    assertSafeKey(key);
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return {
        size: head.ContentLength ?? 0,
        contentType: head.ContentType || contentTypeFor(key),
        etag: head.ETag,
        lastModified: head.LastModified,
      };
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  }

  async read(key: string, range?: ByteRange): Promise<Readable> {
    assertSafeKey(key);
    try {
      const res = await this.client.send(
        new GetObjectCommand({
          Bucket: this.bucket,
          Key: key,
          Range: range ? `bytes=${range.start}-${range.end}` : undefined,
        }),
      );
      const body = res.Body as Readable;
      if (!range) return body;
      const wanted = range.end - range.start + 1;
      // Some S3-compatible servers answer a range with more than was asked (s3rver ignores an end
      // of 0); trim so callers always get exactly the range.
      return (res.ContentLength ?? wanted) > wanted ? body.pipe(limitBytes(wanted)) : body;
    } catch (err) {
      if (isNotFound(err)) throw Object.assign(new Error(`No such object: ${key}`), { code: 'ENOENT' });
      throw err;
    }
  }

  /** Every key under prefix, sorted. The prefix is a directory: `videos/a` does not match `videos/ab/x`. */
  async list(prefix: string): Promise<string[]> {
    const dir = directoryPrefix(prefix);
    const out: string[] = [];
    let token: string | undefined;
    do {
      const page = await this.client.send(new ListObjectsV2Command({ Bucket: this.bucket, Prefix: dir, ContinuationToken: token }));
      for (const o of page.Contents ?? []) if (o.Key) out.push(o.Key);
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return out.sort();
  }

  async delete(key: string): Promise<void> {
    if (isElsewhere(key)) return;
    assertSafeKey(key);
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  async deletePrefix(prefix: string): Promise<void> {
    const keys = await this.list(prefix);
    for (let i = 0; i < keys.length; i += DELETE_BATCH) {
      const batch = keys.slice(i, i + DELETE_BATCH);
      const res = await this.client.send(
        new DeleteObjectsCommand({
          Bucket: this.bucket,
          Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true },
        }),
      );
      if (res.Errors?.length) {
        const e = res.Errors[0]!;
        throw new Error(`Could not delete ${res.Errors.length} objects under ${prefix}: ${e.Key}: ${e.Code} ${e.Message}`);
      }
    }
  }

  url(key: string): string {
    if (isElsewhere(key)) return key;
    assertSafeKey(key);
    return this.opts.publicBaseUrl ? `${this.opts.publicBaseUrl.replace(/\/$/, '')}/${key}` : `/media/${key}`;
  }

  localPath(): string | null {
    return null;
  }

  async healthy(): Promise<boolean> {
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
      return true;
    } catch {
      return false;
    }
  }

  /** Closes the client's sockets. */
  destroy(): void {
    this.client.destroy();
  }
}

function directoryPrefix(prefix: string): string {
  const p = prefix.replace(/\/+$/, '');
  assertSafeKey(p);
  return `${p}/`;
}

function isNotFound(err: unknown): boolean {
  if (err instanceof S3ServiceException) {
    return err.$metadata?.httpStatusCode === 404 || err.name === 'NotFound' || err.name === 'NoSuchKey';
  }
  return false;
}

/** Passes the first n bytes through, then ends. */
function limitBytes(n: number): Transform {
  let left = n;
  return new Transform({
    transform(chunk: Buffer, _enc, done) {
      if (left > 0) {
        const part = chunk.length > left ? chunk.subarray(0, left) : chunk;
        left -= part.length;
        this.push(part);
        if (left === 0) this.push(null);
      }
      done();
    },
  });
}
