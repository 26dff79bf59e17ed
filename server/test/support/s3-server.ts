import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export interface TestS3Server {
  endpoint: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  region: string;
  /** The S3_* settings a child process needs to use this server. */
  env: Record<string, string>;
  stop(): Promise<void>;
}

/** A server's address and keys, with the S3_* settings a child process needs to use it. */
export function s3Access(a: Pick<TestS3Server, 'endpoint' | 'bucket' | 'accessKeyId' | 'secretAccessKey' | 'region'>): Omit<TestS3Server, 'stop'> {
  return {
    ...a,
    env: {
      S3_ENDPOINT: a.endpoint,
      S3_BUCKET: a.bucket,
      S3_REGION: a.region,
      S3_ACCESS_KEY_ID: a.accessKeyId,
      S3_SECRET_ACCESS_KEY: a.secretAccessKey,
      S3_FORCE_PATH_STYLE: 'true',
    },
  };
}

/** The s3rver process script, shared with the benchmarks. */
const SERVER_SCRIPT_FILE = fileURLToPath(new URL('./s3rver-process.cjs', import.meta.url));

/**
 * An S3-compatible server (s3rver) on a free port, storing in a fresh temporary directory, with
 * one bucket. s3rver accepts the fixed S3RVER credentials.
 */
export async function startS3Server(bucket = 'reelhouse-test'): Promise<TestS3Server> {
  const directory = await fs.mkdtemp(path.join(os.tmpdir(), 'reelhouse-s3-'));
  const require = createRequire(import.meta.url);
  const child: ChildProcess = spawn(process.execPath, ['--openssl-legacy-provider', SERVER_SCRIPT_FILE], {
    env: { ...process.env, S3RVER_MODULE: require.resolve('s3rver'), S3RVER_DIR: directory, S3RVER_BUCKET: bucket },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const line = out.split('\n')[0];
      if (out.includes('\n')) resolve((JSON.parse(line!) as { port: number }).port);
    });
    child.once('exit', (code) => reject(new Error(`s3rver exited with code ${code}`)));
    child.once('error', reject);
  });
  const endpoint = `http://127.0.0.1:${port}`;
  const accessKeyId = 'S3RVER';
  const secretAccessKey = 'S3RVER';
  const region = 'us-east-1';
  return {
    ...s3Access({ endpoint, bucket, accessKeyId, secretAccessKey, region }),
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
      await fs.rm(directory, { recursive: true, force: true });
    },
  };
}
