import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedVideo } from '../test/support/seed.js';
import { createTestApp, type TestApp } from '../test/support/test-app.js';
import { newId } from './lib/ids.js';
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
  sweepOrphans({ rows: new OrphanSweepRepository(t.ctx.db), storage: t.ctx.storage, tmpDir: t.ctx.tmpDir, localStorageRoot: mediaRoot() }, now);
const later = () => Date.now() + ORPHAN_GRACE_MS + 60_000;
const exists = (file: string) =>
  fs.stat(file).then(
    () => true,
    () => false,
  );

describe('sweepOrphans', () => {
  it('removes temporary upload files and half-written stored files once nothing has touched them for the grace period', async () => {
    await fs.mkdir(t.ctx.tmpDir, { recursive: true });
    const upload = path.join(t.ctx.tmpDir, `upload-${os.hostname()}-${process.pid}-0123456789abcdef`);
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

  it("removes a dead process's temporary uploads at once, and a live one's only after the grace period", async () => {
    await fs.mkdir(t.ctx.tmpDir, { recursive: true });
    // A pid that surely ran and exited.
    const deadPid = spawnSync('/bin/true').pid;
    const dead = path.join(t.ctx.tmpDir, `upload-${os.hostname()}-${deadPid}-aaaaaaaaaaaaaaaa`);
    const mine = path.join(t.ctx.tmpDir, `upload-${os.hostname()}-${process.pid}-bbbbbbbbbbbbbbbb`);
    const otherHost = path.join(t.ctx.tmpDir, `upload-elsewhere.example-${deadPid}-cccccccccccccccc`);
    for (const f of [dead, mine, otherHost]) await fs.writeFile(f, 'partial');
    expect((await sweep()).temporaryFiles).toBe(1);
    expect(await exists(dead)).toBe(false);
    expect(await exists(mine)).toBe(true);
    expect(await exists(otherHost)).toBe(true);
    await sweep(later());
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
