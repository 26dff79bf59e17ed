import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { S3Storage } from '../src/storage/s3-storage.js';
import { BACKUP_JS, filesUnder, makeTestMedia, RESTORE_JS, runCli, type Site, startSite, startSiteWithVideo, tmpDir } from './support/backup-site.js';
import { ApiClient, buildServer } from './support/processes.js';
import { startS3Server, type TestS3Server } from './support/s3-server.js';

/**
 * Media on S3 is not copied: the backup lists the keys its snapshot's rows own with their sizes,
 * and a restore checks the bucket against that list, naming what is missing, before it writes.
 */
let clips = '';
let s3: TestS3Server | null = null;
const dirs: string[] = [];
const sites: Site[] = [];
beforeAll(async () => {
  clips = await tmpDir('reelhouse-backup-s3-clips-');
  dirs.push(clips);
  [s3] = await Promise.all([startS3Server(), buildServer(), makeTestMedia(clips, { 'small.mp4': { width: 320, height: 180, seconds: 2 } })]);
}, 300_000);
afterAll(async () => {
  for (const s of sites) await s.stop();
  await s3?.stop();
  for (const d of dirs) await fs.rm(d, { recursive: true, force: true });
});

it('a backup with media on S3 lists the keys, and a restore checks they are in the bucket', async () => {
  const dataDir = await tmpDir('reelhouse-backup-s3-');
  dirs.push(dataDir);
  const env = { DATA_DIR: dataDir, ...s3!.env };
  const { site, videoId: id } = await startSiteWithVideo('site on S3', env, clips, 'on s3');
  sites.push(site);

  const run = await runCli(BACKUP_JS, ['--to', path.join(dataDir, 'elsewhere')], env);
  expect(run.code, run.stderr).toBe(0);
  const folder = /^Backup written to (\S+): /m.exec(run.stdout)![1]!;
  expect(await filesUnder(folder)).toEqual(['database.sqlite', 'manifest.json', 'media-s3.jsonl']);
  const listed = (await fs.readFile(path.join(folder, 'media-s3.jsonl'), 'utf8'))
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { key: string; size: number; etag: string | null });
  const storage = new S3Storage({ ...s3!, forcePathStyle: true, publicBaseUrl: null });
  try {
    const inBucket = [...(await storage.list('videos/')), ...(await storage.list('users/'))].sort();
    expect(listed.map((l) => l.key)).toEqual(inBucket);
    expect(listed.some((l) => l.key.startsWith(`videos/${id}/`))).toBe(true);
    for (const l of listed) expect(l.size).toBe((await storage.stat(l.key))!.size);
    const manifest = JSON.parse(await fs.readFile(path.join(folder, 'manifest.json'), 'utf8'));
    expect(manifest.media).toMatchObject({ kind: 's3', files: listed.length, list: { file: 'media-s3.jsonl' } });

    // Restored with the same bucket: the keys are all there, and the site serves the video.
    const target = await tmpDir('reelhouse-backup-s3-restored-');
    dirs.push(target);
    const back = await runCli(RESTORE_JS, [folder], { ...s3!.env, DATA_DIR: target });
    expect(back.code, back.stderr).toBe(0);
    expect(back.stdout).toContain(`with ${listed.length} media keys checked in the bucket`);
    await site.stop();
    const restored = await startSite('restored on S3', { ...s3!.env, DATA_DIR: target });
    sites.push(restored);
    const v = await new ApiClient(restored.api.base).call('GET', `/api/v1/videos/${id}`);
    expect(v.status).toBe(200);
    expect(v.json.data.title).toBe('on s3');
    await restored.stop();

    // A key gone from the bucket is named, and nothing is written.
    const gone = listed.find((l) => l.key.endsWith('.m3u8'))!.key;
    await storage.delete(gone);
    const untouched = await tmpDir('reelhouse-backup-s3-untouched-');
    dirs.push(untouched);
    const refused = await runCli(RESTORE_JS, [folder], { ...s3!.env, DATA_DIR: untouched });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`1 of the ${listed.length} media keys of the backup are not in the bucket as they were: ${gone};`);
    expect(await fs.readdir(untouched)).toEqual([]);
  } finally {
    storage.destroy();
  }
}, 600_000);
