import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';

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

// s3rver encrypts list continuation tokens with DES, which Node's OpenSSL 3 only offers with the
// legacy provider; so it runs in its own process with that flag, leaving the test process as is.
const SERVER_SCRIPT = `
const S3rver = require(process.env.S3RVER_MODULE);
const server = new S3rver({
  address: '127.0.0.1', port: 0, silent: true,
  directory: process.env.S3RVER_DIR,
  configureBuckets: [{ name: process.env.S3RVER_BUCKET }],
});
server.run().then((addr) => process.stdout.write(JSON.stringify({ port: addr.port }) + '\\n'));
// Dies with its parent: stdin closes when the test process goes away.
process.stdin.on('end', () => process.exit(0)).resume();
`;

/**
 * An S3-compatible server (s3rver) on a free port, storing in a fresh temporary directory, with
 * one bucket. s3rver accepts the fixed S3RVER credentials.
 */
export async function startS3Server(bucket = 'reelhouse-test'): Promise<TestS3Server> {
  const directory = await fs.mkdtemp(path.join(os.tmpdir(), 'reelhouse-s3-'));
  const require = createRequire(import.meta.url);
  const child: ChildProcess = spawn(process.execPath, ['--openssl-legacy-provider', '-e', SERVER_SCRIPT], {
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
    endpoint,
    bucket,
    accessKeyId,
    secretAccessKey,
    region,
    env: {
      S3_ENDPOINT: endpoint,
      S3_BUCKET: bucket,
      S3_REGION: region,
      S3_ACCESS_KEY_ID: accessKeyId,
      S3_SECRET_ACCESS_KEY: secretAccessKey,
      S3_FORCE_PATH_STYLE: 'true',
    },
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
