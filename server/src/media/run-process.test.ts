import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { ProcessFailure, runProcess } from './run-process.js';

const ffmpegPath = process.env.FFMPEG_PATH ?? 'ffmpeg';
// An endless test source: only a kill stops it.
const endless = ['-hide_banner', '-nostdin', '-loglevel', 'error', '-progress', 'pipe:1', '-re', '-f', 'lavfi', '-i', 'testsrc2=size=64x64', '-f', 'null', '-'];

describe('runProcess', () => {
  it('delivers stdout lines and resolves on success', async () => {
    const lines: string[] = [];
    await runProcess(
      ffmpegPath,
      ['-hide_banner', '-nostdin', '-loglevel', 'error', '-progress', 'pipe:1', '-f', 'lavfi', '-i', 'testsrc2=size=64x64:duration=0.5', '-f', 'null', '-'],
      {
        onStdoutLine: (l) => lines.push(l),
      },
    );
    expect(lines).toContain('progress=end');
  });

  it('feeds a stream to standard input as it arrives, and ends it when the stream ends; without one, input is at its end', async () => {
    const input = new PassThrough();
    const run = runProcess('wc', ['-c'], { stdin: input, captureStdout: true });
    input.write('abc');
    setTimeout(() => input.end('de'), 50);
    expect((await run).stdout.trim()).toBe('5');
    expect((await runProcess('wc', ['-c'], { captureStdout: true })).stdout.trim()).toBe('0');
  });

  it('kills the process when the signal aborts', async () => {
    const abort = new AbortController();
    setTimeout(() => abort.abort(), 300);
    const started = Date.now();
    await expect(runProcess(ffmpegPath, endless, { signal: abort.signal })).rejects.toMatchObject({ kind: 'timeout' });
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('kills the process at its time limit', async () => {
    await expect(runProcess(ffmpegPath, endless, { timeoutMs: 300 })).rejects.toMatchObject({
      kind: 'timeout',
      message: expect.stringContaining('time limit'),
    });
  });

  it('keeps the end of stderr of a failed run', async () => {
    const err = await runProcess(ffmpegPath, ['-hide_banner', '-nostdin', '-i', '/no/such/input.mp4', '-f', 'null', '-']).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProcessFailure);
    expect((err as ProcessFailure).kind).toBe('failed');
    expect((err as ProcessFailure).exitCode).not.toBe(0);
    expect((err as ProcessFailure).stderrTail).toContain('No such file or directory');
  });

  it('runs the process at the niceness asked for', async () => {
    // `nice` without arguments prints the niceness it inherited from the shell it runs in.
    const niced = await runProcess('/bin/sh', ['-c', 'sleep 0.2; nice'], { captureStdout: true, nice: 7 });
    const plain = await runProcess('/bin/sh', ['-c', 'sleep 0.2; nice'], { captureStdout: true });
    expect(Number(niced.stdout.trim()) - Number(plain.stdout.trim())).toBe(7);
  });

  it('runs a tool under a memory ceiling: within it the tool works, past it the tool fails instead of growing', async () => {
    // The shell holds 120 MB of text in a variable: fine without a ceiling, impossible under 50 MiB.
    const hog = ['-c', 'x=$(head -c 120000000 /dev/zero | tr "\\0" a); echo ${#x}'];
    expect((await runProcess('/bin/sh', hog, { captureStdout: true })).stdout.trim()).toBe('120000000');
    const err = await runProcess('/bin/sh', hog, { captureStdout: true, memoryLimitMb: 50 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProcessFailure);
    expect((err as ProcessFailure).kind).toBe('failed');
    // ffmpeg itself runs under a ceiling that leaves it room.
    await runProcess(
      ffmpegPath,
      ['-hide_banner', '-nostdin', '-loglevel', 'error', '-f', 'lavfi', '-i', 'testsrc2=size=320x240', '-frames:v', '1', '-f', 'null', '-'],
      { memoryLimitMb: 1024 },
    );
  });

  it('names a missing tool under a memory ceiling as it does without one', async () => {
    await expect(runProcess('/no/such/ffmpeg', ['-version'], { memoryLimitMb: 500 })).rejects.toMatchObject({
      message: expect.stringContaining('was not found'),
    });
    await expect(runProcess('/no/such/ffmpeg', ['-version'])).rejects.toMatchObject({ message: expect.stringContaining('was not found') });
  });
});
