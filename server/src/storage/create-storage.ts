import type { Config } from '../config.js';
import { LocalStorage } from './local-storage.js';
import { S3Storage } from './s3-storage.js';
import type { Storage } from './storage.js';

/** The storage the settings describe: a local directory, or an S3-compatible bucket. */
export function createStorage(config: Config['storage']): Storage {
  if (config.kind === 's3') {
    return new S3Storage({
      endpoint: config.endpoint,
      bucket: config.bucket,
      region: config.region,
      accessKeyId: config.accessKeyId,
      secretAccessKey: config.secretAccessKey,
      forcePathStyle: config.forcePathStyle,
      publicBaseUrl: config.publicBaseUrl,
    });
  }
  return new LocalStorage(config.root, config.publicBaseUrl);
}
