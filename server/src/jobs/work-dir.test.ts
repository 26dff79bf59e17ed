import { spawnSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { prepareWorkDir, removeWorkDir } from './work-dir.js';

describe('prepareWorkDir', () => {
  let base = '';
  afterEach(async () => {
    if (base) await fs.rm(base, { recursive: true, force: true });
  });

  it('gives each process its own directory and removes those of dead processes on this host', async () => {
    base = await fs.mkdtemp(path.join(os.tmpdir(), 'reelhouse-work-'));
    const host = os.hostname();
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout.toString();
    const deadDir = path.join(base, `${host}-${dead}`, 'v1-ladder-abc');
    const liveDir = path.join(base, `${host}-${process.ppid}`, 'v2-ladder-def');
    const otherHost = path.join(base, `another-machine-${dead}`, 'v3-ladder-ghi');
    for (const d of [deadDir, liveDir, otherHost]) {
      await fs.mkdir(d, { recursive: true });
      await fs.writeFile(path.join(d, 'seg.m4s'), 'x');
    }

    const mine = await prepareWorkDir(base);
    expect(mine).toBe(path.join(base, `${host}-${process.pid}`));
    expect((await fs.stat(mine)).isDirectory()).toBe(true);
    expect((await fs.readdir(base)).sort()).toEqual([`${host}-${process.ppid}`, `${host}-${process.pid}`, `another-machine-${dead}`].sort());

    await removeWorkDir(mine);
    await expect(fs.stat(mine)).rejects.toThrow();
  });
});
