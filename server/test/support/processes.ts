import fs from 'node:fs/promises';
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';

export const ROOT = path.resolve(import.meta.dirname, '../../..');
export const MAIN_JS = path.join(ROOT, 'server/dist/main.js');
export const WORKER_JS = path.join(ROOT, 'server/dist/worker.js');

/** Builds the contract and server packages so the dist entry points are current; one build at a time. */
export async function buildServer(): Promise<void> {
  await promisify(execFile)('flock', ['/tmp/reelhouse-build.lock', 'sh', '-c', 'npm run build -w contract && npm run build -w server'], {
    cwd: ROOT,
    maxBuffer: 16 * 1024 * 1024,
  });
}

/**
 * A port for a process a test is about to start, picked below the kernel's ephemeral range
 * (32768 and up): a port the kernel hands out (to an outgoing connection, or a server on port 0)
 * could be taken by one of the tests beside this one before the process gets to listen on it.
 */
export async function freePort(): Promise<number> {
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    const free = await new Promise<boolean>((resolve) => {
      const srv = net.createServer();
      srv.once('error', () => resolve(false));
      srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
    });
    if (free) return port;
  }
}

/** One pino log line. */
export type LogLine = Record<string, unknown> & { msg?: string };

export interface RunningProcess {
  name: string;
  child: ChildProcess;
  pid: number;
  /** Every JSON log line so far. */
  logs: LogLine[];
  /** Lines that were not JSON (stack traces, ffmpeg noise). */
  text: string[];
  waitForLog(what: string, pred: (l: LogLine) => boolean, timeoutMs?: number): Promise<LogLine>;
  /** SIGTERM and wait for exit; answers the exit code. */
  stop(): Promise<number | null>;
  /** SIGKILL and wait for exit. */
  kill(): Promise<void>;
  exited: Promise<number | null>;
}

/**
 * Starts `node <script>` with env, collecting its logs. The RTMP ingest is off unless env turns it
 * on: the processes of a test (and of the tests beside it) share one machine, and only one of them
 * could hold the ingest's port.
 */
/** argon2id at its floor, as every test's site hashes passwords (docs/decisions/0060): the same code, a thousandth of the cost. */
export const FAST_PASSWORD_HASHING = { PASSWORD_HASH_MEMORY_KIB: '1024', PASSWORD_HASH_ITERATIONS: '1' };

export function startProcess(name: string, script: string, env: Record<string, string>): RunningProcess {
  const child = spawn(process.execPath, [script], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', LIVE_INGEST: 'off', ...FAST_PASSWORD_HASHING, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: LogLine[] = [];
  const text: string[] = [];
  const waiters = new Set<() => void>();
  const onLine = (line: string) => {
    if (!line.trim()) return;
    try {
      logs.push(JSON.parse(line) as LogLine);
    } catch {
      text.push(line);
    }
    for (const w of waiters) w();
  };
  for (const stream of [child.stdout!, child.stderr!]) {
    let buf = '';
    stream.on('data', (d: Buffer) => {
      buf += d.toString();
      let i: number;
      while ((i = buf.indexOf('\n')) >= 0) {
        onLine(buf.slice(0, i));
        buf = buf.slice(i + 1);
      }
    });
  }
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let exitCode: number | null | undefined;
  void exited.then((c) => {
    exitCode = c;
    for (const w of waiters) w();
  });

  const proc: RunningProcess = {
    name,
    child,
    pid: child.pid!,
    logs,
    text,
    exited,
    waitForLog(what, pred, timeoutMs = 60_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const hit = logs.find(pred);
          if (hit) {
            done();
            resolve(hit);
          } else if (exitCode !== undefined) {
            done();
            reject(new Error(`${name} exited (${exitCode}) before ${what}:\n${[...text, ...logs.slice(-20).map((l) => JSON.stringify(l))].join('\n')}`));
          }
        };
        const timer = setTimeout(() => {
          done();
          reject(new Error(`Timed out waiting for ${name}: ${what}\n${text.slice(-20).join('\n')}`));
        }, timeoutMs);
        const done = () => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
        check();
      });
    },
    async stop() {
      if (exitCode === undefined) child.kill('SIGTERM');
      return exited;
    },
    async kill() {
      if (exitCode === undefined) child.kill('SIGKILL');
      await exited;
    },
  };
  return proc;
}

/** A small client for the running API. */
export class ApiClient {
  accessToken = '';
  constructor(readonly base: string) {}

  async call(method: string, url: string, body?: FormData | object, extraHeaders: Record<string, string> = {}): Promise<{ status: number; json: any }> {
    const headers: Record<string, string> = { ...extraHeaders };
    if (this.accessToken) headers.authorization = `Bearer ${this.accessToken}`;
    let payload: BodyInit | undefined;
    if (body instanceof FormData) payload = body;
    else if (body) {
      headers['content-type'] = 'application/json';
      payload = JSON.stringify(body);
    }
    const res = await fetch(`${this.base}${url}`, { method, headers, body: payload });
    const text = await res.text();
    let json: any = null;
    try {
      json = JSON.parse(text);
    } catch {
      json = text;
    }
    return { status: res.status, json };
  }

  /** Registers and signs in a fresh user. */
  async signUp(): Promise<void> {
    const n = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6)}`;
    const form = new FormData();
    const fields = { username: `u${n}`, email: `u${n}@example.com`, password: 'correct-horse-1', fullName: `User ${n}` };
    for (const [k, v] of Object.entries(fields)) form.append(k, v);
    const reg = await this.call('POST', '/api/v1/users/register', form);
    if (reg.status !== 201) throw new Error(`register: ${reg.status} ${JSON.stringify(reg.json)}`);
    const login = await this.call('POST', '/api/v1/users/login', { email: fields.email, password: fields.password }, { 'x-return-tokens': 'true' });
    if (login.status !== 200) throw new Error(`login: ${login.status} ${JSON.stringify(login.json)}`);
    this.accessToken = login.json.data.accessToken;
  }

  async fetchBytes(url: string): Promise<{ status: number; type: string | null; body: Buffer }> {
    const res = await fetch(url.startsWith('http') ? url : `${this.base}${url}`);
    return { status: res.status, type: res.headers.get('content-type'), body: Buffer.from(await res.arrayBuffer()) };
  }
}

/** Waits until the API answers its health check. */
export async function waitForHealthy(api: ApiClient, proc: RunningProcess, timeoutMs = 60_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    try {
      const res = await api.call('GET', '/api/v1/healthcheck');
      if (res.status === 200) return;
    } catch {
      /* not listening yet */
    }
    if (proc.child.exitCode !== null) throw new Error(`${proc.name} exited: ${proc.text.join('\n')}`);
    if (Date.now() > end) throw new Error(`${proc.name} never became healthy`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** The multipart body of a video upload: a clip and thumb.png from `dir`, with a title and description. */
export async function clipUploadForm(dir: string, clip: string, title: string, description: string): Promise<FormData> {
  const form = new FormData();
  form.append('title', title);
  form.append('description', description);
  form.append('videoFile', new File([await fs.readFile(path.join(dir, clip))], clip, { type: 'video/mp4' }));
  form.append('thumbnail', new File([await fs.readFile(path.join(dir, 'thumb.png'))], 'thumb.png', { type: 'image/png' }));
  return form;
}
