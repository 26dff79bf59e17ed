import { randomBytes } from 'node:crypto';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { FileStore } from '@tus/file-store';
import { type MetadataValue as S3Metadata, S3Store } from '@tus/s3-store';
import { MemoryLocker } from '@tus/server';
import { type DataStore, IoRedisKvStore, type KvStore, type Locker, MemoryKvStore, type Upload } from '@tus/utils';
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { Config } from '../../config.js';
import { ownerTag } from '../../lib/process-owner.js';
import type { Storage } from '../../storage/storage.js';
import { RedisLocker } from './redis-locker.js';

/** Every upload's bytes live under this prefix of the upload store: `uploads/<id>`. */
const PREFIX = 'uploads/';
/** S3 parts: 5 MiB is the smallest S3 allows; 8 MiB keeps a 4 GiB upload at 512 parts. */
const S3_PART_BYTES = 8 * 1024 * 1024;

export interface UploadState {
  size: number;
  offset: number;
  complete: boolean;
}

/**
 * Where resumable uploads keep their bytes while they arrive: DATA_DIR/uploads with the tus file
 * store in embedded mode, or the media bucket with the tus S3 store in scaled mode (each PATCH's
 * bytes go straight on as parts of an S3 multipart upload). With Redis, a lock per upload and the
 * S3 store's metadata cache live there, so any API process can serve any request of an upload.
 */
export class UploadStore {
  private constructor(
    readonly datastore: DataStore,
    readonly locker: Locker,
    private readonly storage: Storage,
    private readonly localDir: string | null,
    private readonly redis: Redis[],
    private readonly s3MetadataCache: KvStore<unknown> | null = null,
  ) {}

  static async open(config: Config, storage: Storage, logger: Logger): Promise<UploadStore> {
    const expirationPeriodInMilliseconds = config.uploadExpiryMs;
    const redis = config.redisUrl ? [new Redis(config.redisUrl, { maxRetriesPerRequest: 3 }), new Redis(config.redisUrl)] : [];
    // ioredis reconnects by itself; without a listener each failed attempt is an unhandled error event.
    for (const client of redis) client.on('error', (err) => logger.warn({ err: { message: err.message } }, 'upload store: Redis unreachable'));
    const locker = redis.length ? new RedisLocker(redis[0]!, redis[1]!) : new MemoryLocker();
    if (config.storage.kind === 's3') {
      const s = config.storage;
      const cache = redis.length ? new IoRedisKvStore<S3Metadata>(redis[0]!, 'reelhouse:tus-meta:') : new MemoryKvStore<S3Metadata>();
      const datastore = new S3Store({
        partSize: S3_PART_BYTES,
        // Expiry is the housekeeping's work (from the uploads table), not S3 object tags.
        useTags: false,
        expirationPeriodInMilliseconds,
        cache,
        s3ClientConfig: {
          bucket: s.bucket,
          endpoint: s.endpoint,
          region: s.region,
          forcePathStyle: s.forcePathStyle,
          credentials: s.accessKeyId && s.secretAccessKey ? { accessKeyId: s.accessKeyId, secretAccessKey: s.secretAccessKey } : undefined,
          requestChecksumCalculation: 'WHEN_REQUIRED',
          responseChecksumValidation: 'WHEN_REQUIRED',
        },
      });
      return new UploadStore(datastore as unknown as DataStore, locker, storage, null, redis, cache as KvStore<unknown>);
    }
    // The store's directory is DATA_DIR, so the id `uploads/<id>` is the file DATA_DIR/uploads/<id>.
    await fsp.mkdir(path.join(config.dataDir, PREFIX), { recursive: true });
    const datastore = new FileStore({ directory: config.dataDir, expirationPeriodInMilliseconds });
    return new UploadStore(datastore as unknown as DataStore, locker, storage, config.dataDir, redis);
  }

  storeId(uploadId: string) {
    return `${PREFIX}${uploadId}`;
  }

  uploadIdOf(storeId: string) {
    return storeId.startsWith(PREFIX) ? storeId.slice(PREFIX.length) : storeId;
  }

  /** How far an upload has come, or null when the store has no such upload. */
  async state(uploadId: string): Promise<UploadState | null> {
    let upload: Upload;
    try {
      upload = await this.datastore.getUpload(this.storeId(uploadId));
    } catch {
      return null;
    }
    const size = upload.size ?? 0;
    return { size, offset: upload.offset, complete: upload.size !== undefined && upload.offset >= size };
  }

  /**
   * A local file with the upload's bytes, for probing and storing: the file itself on local disk
   * (`owned: false`), or a download into tmpDir from the bucket that the caller removes.
   */
  async localCopy(uploadId: string, tmpDir: string): Promise<{ path: string; owned: boolean }> {
    if (this.localDir) return { path: path.join(this.localDir, this.storeId(uploadId)), owned: false };
    await fsp.mkdir(tmpDir, { recursive: true });
    // Named after this process, like the multipart reader's files, so that a copy left by a process
    // killed mid-download is swept as soon as the process is gone.
    const file = path.join(tmpDir, `upload-${ownerTag()}-${randomBytes(8).toString('hex')}`);
    try {
      await this.storage.download(this.storeId(uploadId), file);
    } catch (err) {
      await fsp.rm(file, { force: true });
      throw err;
    }
    return { path: file, owned: true };
  }

  /** Removes an upload's bytes and metadata; one already gone is fine. */
  async remove(uploadId: string): Promise<void> {
    const id = this.storeId(uploadId);
    // A PATCH still writing is asked to stop first, as tus termination does.
    const lock = this.locker.newLock(id);
    await lock.lock(AbortSignal.timeout(10_000), () => undefined);
    try {
      await this.removeLocked(uploadId, id);
    } finally {
      await lock.unlock();
    }
  }

  private async removeLocked(uploadId: string, id: string): Promise<void> {
    if (this.localDir) {
      await this.datastore.remove(id).catch(async (err) => {
        if (await this.state(uploadId)) throw err;
      });
      return;
    }
    // The S3 store aborts the multipart upload first and stops there when it is already complete,
    // so the objects it leaves are deleted here by name.
    await this.datastore.remove(id).catch(() => undefined);
    for (const key of [id, `${id}.info`, `${id}.part`]) await this.storage.delete(key);
    await this.s3MetadataCache?.delete(id);
  }

  async close() {
    await Promise.all(this.redis.map((r) => r.quit().catch(() => r.disconnect())));
  }
}
