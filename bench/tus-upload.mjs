#!/usr/bin/env node
/**
 * Resumable upload benchmark: a large upload (2 GiB by default) through tus to the built server,
 * with the connection cut three times (at 25 %, 50 % and 75 %); after each cut the client asks the
 * server for its offset (HEAD) and continues from there. Checks that the upload completes and that
 * the sha256 of the stored bytes matches what was sent, and samples the server's RSS all along.
 * The baseline is the same server in the same run after a small warm-up upload, idle: the peak
 * during the big upload against it shows whether memory stays flat. Runs on local disk and on S3
 * (s3rver, where every piece goes on as a part of a multipart upload).
 *
 * Usage: npm run build && node bench/tus-upload.mjs [--gib 2] [--only local|s3]
 */
import { spawn } from 'node:child_process';
import { createCipheriv, createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const SIZE = Math.round(Number(arg('gib', '2')) * 1024 ** 3);
const ONLY = arg('only', null);
const PORT = Number(process.env.TUS_BENCH_PORT ?? 7235);
const MiB = 1024 * 1024;
if (!fs.existsSync(path.join(root, 'server/dist/main.js'))) {
  console.error('Build first: npm run build');
  process.exit(1);
}

/** Deterministic bytes without a 2 GiB file: the AES-256-CTR keystream, which can start at any offset. */
const KEY = Buffer.alloc(32, 7);
function bytes(from, to) {
  const block = Math.floor(from / 16);
  const iv = Buffer.alloc(16);
  iv.writeBigUInt64BE(BigInt(block), 8);
  const cipher = createCipheriv('aes-256-ctr', KEY, iv);
  const zeros = Buffer.alloc(MiB);
  let pos = block * 16;
  return Readable.from(
    (function* () {
      while (pos < to) {
        const n = Math.min(MiB, to - pos);
        let chunk = cipher.update(n === MiB ? zeros : zeros.subarray(0, n));
        if (pos < from) chunk = chunk.subarray(from - pos);
        pos += n;
        yield chunk;
      }
    })(),
    { objectMode: false },
  );
}

async function sha256Of(stream) {
  const h = createHash('sha256');
  for await (const c of stream) h.update(c);
  return h.digest('hex');
}

function request(method, url, headers = {}, body) {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Streams bytes [offset, end) as one PATCH; with `cutAt`, drops the connection once that many are sent. */
function patch(url, token, offset, end, cutAt) {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method: 'PATCH',
        headers: {
          authorization: `Bearer ${token}`,
          'tus-resumable': '1.0.0',
          'upload-offset': String(offset),
          'content-type': 'application/offset+octet-stream',
          'content-length': String(end - offset),
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode, cut: false }));
      },
    );
    const source = bytes(offset, cutAt ?? end);
    if (cutAt !== undefined) {
      req.on('error', () => resolve({ status: 0, cut: true }));
      source.on('end', () => setTimeout(() => req.destroy(), 200));
      source.pipe(req, { end: false });
      return;
    }
    req.on('error', reject);
    source.pipe(req);
  });
}

function rssOf(pid) {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)[1]) * 1024;
}

function sampler(pid) {
  const samples = [];
  const timer = setInterval(() => {
    try {
      samples.push(rssOf(pid));
    } catch {
      /* the process is gone */
    }
  }, 100);
  return { stop: () => (clearInterval(timer), samples) };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const mb = (n) => +(n / MiB).toFixed(1);

async function startS3rver(dir) {
  const require = createRequire(path.join(root, 'server/package.json'));
  const child = spawn(process.execPath, ['--openssl-legacy-provider', path.join(root, 'server/test/support/s3rver-process.cjs')], {
    env: { ...process.env, S3RVER_MODULE: require.resolve('s3rver'), S3RVER_DIR: dir, S3RVER_BUCKET: 'bench' },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const port = await new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      if (out.includes('\n')) resolve(JSON.parse(out.split('\n')[0]).port);
    });
    child.once('exit', (code) => reject(new Error(`s3rver exited with ${code}`)));
  });
  return {
    child,
    env: {
      S3_ENDPOINT: `http://127.0.0.1:${port}`,
      S3_BUCKET: 'bench',
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_FORCE_PATH_STYLE: 'true',
    },
  };
}

async function startServer(dataDir, extraEnv) {
  const child = spawn(process.execPath, [path.join(root, 'server/dist/main.js')], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(PORT),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DEMO_ACCOUNT: 'false',
      LOG_LEVEL: 'warn',
      MAX_VIDEO_BYTES: String(SIZE + MiB),
      RATE_LIMIT_AUTH_PER_MINUTE: '1000',
      RATE_LIMIT_UPLOADS_PER_HOUR: '1000',
      RATE_LIMIT_GENERAL_PER_MINUTE: '100000',
      ...extraEnv,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const base = `http://127.0.0.1:${PORT}`;
  for (let i = 0; ; i++) {
    const ok = await request('GET', `${base}/api/v1/healthcheck`).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ok) break;
    if (i > 300) throw new Error('server did not start');
    await new Promise((r) => setTimeout(r, 100));
  }
  return { child, base };
}

async function signIn(base) {
  const user = { username: `bench${Date.now()}`, email: `bench${Date.now()}@example.com`, password: 'bench-password-1', fullName: 'Bench' };
  const form = new FormData();
  for (const [k, v] of Object.entries(user)) form.append(k, v);
  const reg = await fetch(`${base}/api/v1/users/register`, { method: 'POST', body: form });
  if (!reg.ok) throw new Error(`register: ${reg.status} ${await reg.text()}`);
  const login = await fetch(`${base}/api/v1/users/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-return-tokens': 'true' },
    body: JSON.stringify({ email: user.email, password: user.password }),
  });
  return (await login.json()).data.accessToken;
}

async function create(base, token, size) {
  const res = await request('POST', `${base}/api/v1/uploads`, { authorization: `Bearer ${token}`, 'tus-resumable': '1.0.0', 'upload-length': String(size) });
  if (res.status !== 201) throw new Error(`create: ${res.status} ${res.text}`);
  return new URL(res.headers.location, base).href;
}

async function offsetOf(url, token) {
  for (let i = 0; ; i++) {
    const res = await request('HEAD', url, { authorization: `Bearer ${token}`, 'tus-resumable': '1.0.0' });
    if (res.status === 200) return Number(res.headers['upload-offset']);
    if (i > 100) throw new Error(`HEAD: ${res.status}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function storedSha(backend, dataDir, s3env, id) {
  if (backend === 'local') return sha256Of(fs.createReadStream(path.join(dataDir, 'uploads', id)));
  const require = createRequire(path.join(root, 'server/package.json'));
  const { S3Client, GetObjectCommand } = require('@aws-sdk/client-s3');
  const client = new S3Client({
    endpoint: s3env.S3_ENDPOINT,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  const obj = await client.send(new GetObjectCommand({ Bucket: 'bench', Key: `uploads/${id}` }));
  const sha = await sha256Of(obj.Body);
  client.destroy();
  return sha;
}

async function run(backend, expectedSha) {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), `reelhouse-tus-bench-${backend}-`));
  const s3 = backend === 's3' ? await startS3rver(path.join(work, 's3')) : null;
  const server = await startServer(path.join(work, 'data'), s3?.env ?? {});
  try {
    const token = await signIn(server.base);
    // Warm-up: a small upload through the same path, then the idle baseline.
    const warm = await create(server.base, token, 16 * MiB);
    await patch(warm, token, 0, 16 * MiB);
    await new Promise((r) => setTimeout(r, 500));
    const idle = sampler(server.child.pid);
    await new Promise((r) => setTimeout(r, 3000));
    const baseline = median(idle.stop());

    const url = await create(server.base, token, SIZE);
    const id = url.split('/').pop();
    const rss = sampler(server.child.pid);
    const started = performance.now();
    const cuts = [0.25, 0.5, 0.75].map((f) => Math.floor(SIZE * f));
    const resumedAt = [];
    let offset = 0;
    for (const cut of cuts) {
      await patch(url, token, offset, SIZE, cut);
      offset = await offsetOf(url, token);
      resumedAt.push(offset);
    }
    const last = await patch(url, token, offset, SIZE);
    const seconds = (performance.now() - started) / 1000;
    const samples = rss.stop();
    const final = await offsetOf(url, token);
    const sha = await storedSha(backend, path.join(work, 'data'), s3?.env, id);
    const peak = Math.max(...samples);
    const result = {
      bench: 'tus-upload',
      backend,
      bytes: SIZE,
      cuts: cuts.length,
      resumedAtMiB: resumedAt.map(mb),
      lastPatchStatus: last.status,
      complete: final === SIZE,
      sha256Matches: sha === expectedSha,
      seconds: +seconds.toFixed(1),
      mibPerSecond: +(SIZE / MiB / seconds).toFixed(1),
      baselineRssMiB: mb(baseline),
      peakRssMiB: mb(peak),
      medianRssMiB: mb(median(samples)),
      peakOverBaseline: +(peak / baseline).toFixed(2),
    };
    console.log(JSON.stringify(result));
    return result;
  } finally {
    server.child.kill('SIGTERM');
    await new Promise((r) => server.child.once('exit', r));
    s3?.child.kill('SIGTERM');
    fs.rmSync(work, { recursive: true, force: true });
  }
}

const expectedSha = await sha256Of(bytes(0, SIZE));
const results = [];
for (const backend of ['local', 's3']) if (!ONLY || ONLY === backend) results.push(await run(backend, expectedSha));
const failed = results.filter((r) => !r.complete || !r.sha256Matches || r.lastPatchStatus !== 204);
if (failed.length) {
  console.error('tus-upload: an upload did not complete intact');
  process.exit(1);
}
