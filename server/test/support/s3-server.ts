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
// s3rver lacks two multipart calls the tus S3 store makes: ListParts (GET ?uploadId) to learn an
// upload's offset and AbortMultipartUpload (DELETE ?uploadId) to terminate one. They are answered
// here from s3rver's own part files, ahead of its router.
const fs = require('node:fs');
const path = require('node:path');
const partsDir = (bucket, uploadId) => path.join(server.store.getResourcePath(bucket, undefined, 'uploads'), uploadId);
const noSuchUpload = (ctx) => {
  ctx.status = 404;
  ctx.type = 'application/xml';
  ctx.body = '<?xml version="1.0" encoding="UTF-8"?><Error><Code>NoSuchUpload</Code><Message>The specified upload does not exist.</Message></Error>';
};
server.middleware.unshift(async (ctx, next) => {
  const uploadId = ctx.query.uploadId;
  // Path-style: /<bucket>/<key>
  const slash = ctx.path.indexOf('/', 1);
  const m = slash > 0 ? [ctx.path, ctx.path.slice(1, slash), ctx.path.slice(slash + 1)] : null;
  if (!uploadId || !m || (ctx.method !== 'GET' && ctx.method !== 'DELETE')) return next();
  const dir = partsDir(m[1], uploadId);
  if (!fs.existsSync(dir)) return noSuchUpload(ctx);
  if (ctx.method === 'DELETE') {
    fs.rmSync(dir, { recursive: true, force: true });
    ctx.status = 204;
    return;
  }
  const marker = Number(ctx.query['part-number-marker'] || 0);
  // A part counts once s3rver has finished it (its .md5 file is written last).
  const parts = fs.readdirSync(dir).filter((f) => f.endsWith('.md5')).map((f) => Number(f.slice(0, -4)))
    .filter((n) => n > marker).sort((a, b) => a - b);
  const xml = parts.map((n) => {
    const file = path.join(dir, String(n));
    const st = fs.statSync(file);
    const md5 = fs.readFileSync(file + '.md5', 'utf8');
    return '<Part><PartNumber>' + n + '</PartNumber><LastModified>' + st.mtime.toISOString() + '</LastModified><ETag>&quot;' + md5 + '&quot;</ETag><Size>' + st.size + '</Size></Part>';
  }).join('');
  ctx.type = 'application/xml';
  ctx.body = '<?xml version="1.0" encoding="UTF-8"?><ListPartsResult><Bucket>' + m[1] + '</Bucket><Key>' + m[2] + '</Key><UploadId>' + uploadId
    + '</UploadId><PartNumberMarker>' + marker + '</PartNumberMarker><MaxParts>10000</MaxParts><IsTruncated>false</IsTruncated>' + xml + '</ListPartsResult>';
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
