import { type ChildProcess, spawn } from 'node:child_process';
import net from 'node:net';

/** A port nothing listens on now. */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export interface Push {
  child: ChildProcess;
  /** Resolves with ffmpeg's exit code once it has ended. */
  exited: Promise<number | null>;
  stderr: () => string;
}

/**
 * ffmpeg publishing a test pattern and a tone over RTMP, as OBS would, for `seconds`; `small`
 * (320x240 at 25 frames a second) where a test only needs something on air.
 */
export function push(port: number, key: string, seconds: number, opts: { small?: boolean } = {}): Push {
  const [size, rate] = opts.small ? ['320x240', 25] : ['640x360', 30];
  const child = spawn(
    process.env.FFMPEG_PATH ?? 'ffmpeg',
    [
      ...['-hide_banner', '-loglevel', 'error', '-re'],
      ...['-f', 'lavfi', '-i', `testsrc2=size=${size}:rate=${rate}:duration=${seconds}`],
      ...['-f', 'lavfi', '-i', `sine=frequency=440:duration=${seconds}`],
      ...['-c:v', 'libx264', '-preset', 'ultrafast', '-tune', 'zerolatency', '-g', String(rate), '-pix_fmt', 'yuv420p'],
      ...['-c:a', 'aac', '-f', 'flv', `rtmp://127.0.0.1:${port}/live/${key}`],
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exited, stderr: () => err };
}

/** Reads until `ok` holds, or fails after `timeoutMs` saying what it waited for. */
export async function until<T>(what: string, read: () => Promise<T>, ok: (v: T) => boolean, timeoutMs = 15_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await read();
    if (ok(v)) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
