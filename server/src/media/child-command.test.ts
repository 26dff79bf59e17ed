import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { commandName, processesWith } from '../../test/support/owners.js';
import { childCommand, childrenDieWithParent } from './child-command.js';

const ffmpegPath = process.env.FFMPEG_PATH ?? 'ffmpeg';

async function waitFor<T>(what: string, probe: () => Promise<T | null>, timeoutMs: number): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== null) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const marker = `reelhouse-child-${randomUUID()}`;
const starters: ChildProcess[] = [];
afterAll(async () => {
  for (const s of starters) if (s.exitCode === null && s.signalCode === null) s.kill('SIGKILL');
  // A tool that outlived its starter (the failure this file looks for) is this file's to stop.
  for (const pid of await processesWith(marker)) process.kill(pid, 'SIGKILL');
});

describe('media tools and the process that starts them', () => {
  it('are there to die with it on this machine', () => {
    expect(childrenDieWithParent()).toBe(true);
  });

  it('a tool dies with the Node process that started it, even one killed with SIGKILL', async () => {
    // A Node process that runs an endless ffmpeg through runProcess, under the default memory ceiling.
    const starter = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        '--input-type=module',
        '-e',
        `const { runProcess } = await import(process.argv[1]);
         await runProcess(process.argv[2], ['-hide_banner', '-nostdin', '-loglevel', 'error', '-re', '-f', 'lavfi', '-i', 'testsrc2=size=64x64',
           '-metadata', 'comment=' + process.env.MARKER, '-f', 'null', '-'], { memoryLimitMb: 4096 });`,
        path.join(import.meta.dirname, 'run-process.ts'),
        ffmpegPath,
      ],
      // The marker reaches ffmpeg's command line only, not the starter's.
      { stdio: 'ignore', env: { ...process.env, MARKER: marker } },
    );
    starters.push(starter);
    const exited = new Promise((resolve) => starter.once('exit', resolve));
    // Running as ffmpeg itself, the wrappers before it having exec'd in its place.
    const [tool] = await waitFor(
      'ffmpeg to start',
      async () => {
        const pids = await processesWith(marker);
        return pids.length === 1 && (await commandName(pids[0]!)) === 'ffmpeg' ? pids : null;
      },
      30_000,
    );
    // ffmpeg's parent is the starter itself: every wrapper exec'd in place.
    expect((await readFile(`/proc/${tool}/stat`, 'utf8')).split(') ')[1]!.split(' ')[1]).toBe(String(starter.pid));

    starter.kill('SIGKILL');
    await exited;
    await waitFor('ffmpeg to die with its starter', async () => ((await processesWith(marker)).length === 0 ? true : null), 2000);
  });

  it('a tool whose starter died before the signal was set does not run at all', () => {
    const [command, args] = childCommand('/bin/echo', ['ran'], 0);
    // Started by this process: it runs.
    expect(spawnSync(command, args).stdout.toString()).toBe('ran\n');
    // Started through another process in between: its parent is not the one it was told of, as it
    // would be had its starter died before setpriv armed the signal.
    const through = spawnSync('/bin/sh', ['-c', '"$@"; exit $?', 'sh', command, ...args]);
    expect(through.stdout.toString()).toBe('');
    expect(through.status).not.toBe(0);
  });
});
