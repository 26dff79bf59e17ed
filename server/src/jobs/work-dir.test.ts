import { spawnSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { exitedOwnerTag } from '../../test/support/owners.js';
import { ownerTag, ownerTagOf } from '../lib/process-owner.js';
import { prepareWorkDir, removeWorkDir, sweepWorkDirs } from './work-dir.js';

let base = '';
afterEach(async () => {
  if (base) await fs.rm(base, { recursive: true, force: true });
});

async function scratch(...dirs: string[]): Promise<void> {
  for (const d of dirs) {
    await fs.mkdir(path.join(base, d, 'v-ladder-abc'), { recursive: true });
    await fs.writeFile(path.join(base, d, 'v-ladder-abc', 'seg.m4s'), 'x');
  }
}

describe('work directories', () => {
  it('gives each process its own directory and removes those whose owner is gone, at start', async () => {
    base = await fs.mkdtemp(path.join(os.tmpdir(), 'reelhouse-work-'));
    const host = os.hostname();
    const dead = await exitedOwnerTag();
    const sibling = ownerTagOf(process.ppid)!;
    // The sibling's pid, as if an earlier process had had it: started one tick earlier.
    const reused = sibling.replace(/-(\d+)-([0-9a-f]{8})-(\d+)$/, (_, start: string, boot: string, ns: string) => `-${Number(start) - 1}-${boot}-${ns}`);
    const olderForm = `${host}-${spawnSync('/bin/true').pid}`;
    const otherHost = `another-machine-${process.ppid}`;
    await scratch(dead, sibling, reused, olderForm, otherHost);

    const mine = await prepareWorkDir(base);
    expect(mine).toBe(path.join(base, ownerTag()));
    expect((await fs.stat(mine)).isDirectory()).toBe(true);
    expect((await fs.readdir(base)).sort()).toEqual([sibling, ownerTag(), otherHost].sort());
    expect(await fs.readdir(path.join(base, sibling, 'v-ladder-abc'))).toEqual(['seg.m4s']);

    await removeWorkDir(mine);
    await expect(fs.stat(mine)).rejects.toThrow();
  });

  it("sweeps a running process's base without touching its own or a live sibling's directory", async () => {
    base = await fs.mkdtemp(path.join(os.tmpdir(), 'reelhouse-work-'));
    const mine = await prepareWorkDir(base);
    await fs.writeFile(path.join(mine, 'in-progress.m4s'), 'x');
    const sibling = ownerTagOf(process.ppid)!;
    const dead = await exitedOwnerTag();
    await scratch(sibling, dead);

    expect(await sweepWorkDirs(base)).toBe(1);
    expect((await fs.readdir(base)).sort()).toEqual([sibling, ownerTag()].sort());
    expect(await fs.readdir(mine)).toEqual(['in-progress.m4s']);
    expect(await sweepWorkDirs(base)).toBe(0);
    expect(await sweepWorkDirs(path.join(base, 'missing'))).toBe(0);
  });
});
