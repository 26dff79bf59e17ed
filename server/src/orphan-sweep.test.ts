import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exitedOwnerTag } from '../test/support/owners.js';
import { seedVideo } from '../test/support/seed.js';
import { createTestApp, type TestApp } from '../test/support/test-app.js';
import { newId } from './lib/ids.js';
import { ownerTag, ownerTagOf } from './lib/process-owner.js';
import { ORPHAN_GRACE_MS, sweepOrphans } from './orphan-sweep.js';
import { OrphanSweepRepository } from './orphan-sweep.repository.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const mediaRoot = () => (t.ctx.config.storage as { root: string }).root;
const sweep = (now?: number) =>
  sweepOrphans(
    { rows: new OrphanSweepRepository(t.ctx.db), storage: t.ctx.storage, tmpDir: t.ctx.tmpDir, workBase: workBase(), localStorageRoot: mediaRoot() },
    now,
  );
const workBase = () => path.join(t.dataDir, 'work');
const later = () => Date.now() + ORPHAN_GRACE_MS + 60_000;
const exists = (file: string) =>
  fs.stat(file).then(
    () => true,
    () => false,
  );

describe('sweepOrphans', () => {
  it('removes temporary upload files and half-written stored files once nothing has touched them for the grace period', async () => {
    await fs.mkdir(t.ctx.tmpDir, { recursive: true });
    const upload = path.join(t.ctx.tmpDir, `upload-${ownerTag()}-0123456789abcdef`);
    const someoneElses = path.join(t.ctx.tmpDir, 'resumable-part');
    const halfStored = path.join(mediaRoot(), '.tmp', 'feedfacefeedface');
    for (const f of [upload, someoneElses, halfStored]) await fs.writeFile(f, 'partial');

    expect((await sweep()).temporaryFiles).toBe(0);
    expect(await exists(upload)).toBe(true);

    expect((await sweep(later())).temporaryFiles).toBe(2);
    expect(await exists(upload)).toBe(false);
    expect(await exists(halfStored)).toBe(false);
    expect(await exists(someoneElses)).toBe(true);
  });

  it("removes a gone process's temporary uploads, frame cuts and work directory at once, and a live one's only after the grace period", async () => {
    await fs.mkdir(t.ctx.tmpDir, { recursive: true });
    const gone = await exitedOwnerTag();
    // A pid that surely ran and exited, named the way older versions named their files.
    const deadPid = spawnSync('/bin/true').pid;
    const sibling = ownerTagOf(process.ppid)!;
    const dead = path.join(t.ctx.tmpDir, `upload-${gone}-aaaaaaaaaaaaaaaa`);
    const olderDead = path.join(t.ctx.tmpDir, `upload-${os.hostname()}-${deadPid}-dddddddddddddddd`);
    const deadFrame = path.join(t.ctx.tmpDir, `frame-${gone}-Ab12Cd`);
    const mine = path.join(t.ctx.tmpDir, `upload-${ownerTag()}-bbbbbbbbbbbbbbbb`);
    const myFrame = path.join(t.ctx.tmpDir, `frame-${ownerTag()}-Ef34Gh`);
    const siblings = path.join(t.ctx.tmpDir, `upload-${sibling}-eeeeeeeeeeeeeeee`);
    const otherHost = path.join(t.ctx.tmpDir, `upload-elsewhere.example-${deadPid}-cccccccccccccccc`);
    for (const f of [dead, olderDead, mine, siblings, otherHost]) await fs.writeFile(f, 'partial');
    for (const d of [deadFrame, myFrame]) {
      await fs.mkdir(d);
      await fs.writeFile(path.join(d, 'frame.png'), 'partial');
    }
    const deadWork = path.join(workBase(), gone, 'v-ladder-abc');
    const siblingWork = path.join(workBase(), sibling, 'v-ladder-def');
    for (const d of [deadWork, siblingWork]) {
      await fs.mkdir(d, { recursive: true });
      await fs.writeFile(path.join(d, 'seg.m4s'), 'x');
    }

    const first = await sweep();
    expect(first.temporaryFiles).toBe(3);
    expect(first.workDirs).toBe(1);
    for (const f of [dead, olderDead, deadFrame, path.join(workBase(), gone)]) expect(await exists(f), f).toBe(false);
    for (const f of [mine, myFrame, siblings, otherHost, siblingWork]) expect(await exists(f), f).toBe(true);

    const old = new Date(Date.now() - 2 * ORPHAN_GRACE_MS);
    for (const f of [mine, myFrame, siblings, otherHost]) await fs.utimes(f, old, old);
    expect((await sweep()).temporaryFiles).toBe(4);
    // A live process's work directory stays however old: its owner decides when it goes.
    expect(await exists(siblingWork)).toBe(true);
    await fs.rm(workBase(), { recursive: true, force: true });
  });

  it('removes stored media of videos and users that have no row, and keeps everything that has one', async () => {
    const owner = await t.signUp();
    const live = await seedVideo(t.ctx, owner.id);
    const gone = newId();
    const goneUser = newId();
    await t.ctx.storage.put(`videos/${live.id}/thumbnail.webp`, Buffer.from('live'), 'image/webp');
    await t.ctx.storage.put(`videos/${gone}/source.mp4`, Buffer.from('orphan'), 'video/mp4');
    await t.ctx.storage.put(`videos/${gone}/hls/master.m3u8`, Buffer.from('orphan'), 'application/vnd.apple.mpegurl');
    await t.ctx.storage.put(`users/${owner.id}/avatar-x.webp`, Buffer.from('live'), 'image/webp');
    await t.ctx.storage.put(`users/${goneUser}/avatar-y.webp`, Buffer.from('orphan'), 'image/webp');

    // Fresh files are left alone: an upload stores its files just before it writes its row.
    expect((await sweep()).mediaPrefixes).toBe(0);
    expect(await t.ctx.storage.stat(`videos/${gone}/source.mp4`)).not.toBeNull();

    // Stored files carry their time of writing; make them old.
    const old = new Date(Date.now() - 2 * ORPHAN_GRACE_MS);
    for (const key of [...(await t.ctx.storage.list('videos/')), ...(await t.ctx.storage.list('users/'))]) {
      await fs.utimes(path.join(mediaRoot(), key), old, old);
    }
    expect((await sweep()).mediaPrefixes).toBe(2);
    expect(await t.ctx.storage.list(`videos/${gone}/`)).toEqual([]);
    expect(await t.ctx.storage.list(`users/${goneUser}/`)).toEqual([]);
    expect(await t.ctx.storage.stat(`videos/${live.id}/thumbnail.webp`)).not.toBeNull();
    expect(await t.ctx.storage.stat(`users/${owner.id}/avatar-x.webp`)).not.toBeNull();
    expect((await sweep()).mediaPrefixes).toBe(0);
  });
});
