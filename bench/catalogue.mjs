#!/usr/bin/env node
/**
 * Fills a database with a large, realistic catalogue for the list and search benchmarks: channels,
 * videos with titles and descriptions drawn from a Zipf-distributed vocabulary (so some words are in
 * a third of all titles and most in a handful), likes, comments (one video with thousands, for deep
 * comment pages), subscriptions, playlists, watch histories, daily views and reports.
 *
 * The schema comes from the server's own migrations; rows go in through bulk statements, and every
 * kept counter (videos_count, subscribers_count, likes_count, comments_count, public_videos) and the
 * search index (SQLite FTS5 triggers, PostgreSQL's generated tsvector) are made consistent with them
 * at the end, so the server sees a database it could have written itself.
 *
 * Usage: npm run build && node bench/catalogue.mjs --db sqlite --file /tmp/catalogue.db [--scale 1]
 *        node bench/catalogue.mjs --db postgres --url postgres://127.0.0.1/reelhouse_catalogue
 * --scale 1 is 1,000,000 videos over 50,000 channels, 2,000,000 likes, 1,000,000 comments and
 * 500,000 subscriptions; --scale 0.01 makes a hundredth of everything. The same --seed makes the
 * same catalogue. Every account's password is `catalogue-password`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { arg, root, serverModule } from './lib/cli.mjs';
import { mulberry32, zipfPicker, makeVocabulary } from './lib/random.mjs';

const kind = arg('db', 'sqlite');
const scale = Number(arg('scale', '1'));
const seed = Number(arg('seed', '42'));
const PASSWORD = 'catalogue-password';
const N = {
  channels: Math.max(20, Math.round(50_000 * scale)),
  videos: Math.max(200, Math.round(1_000_000 * scale)),
  likes: Math.round(2_000_000 * scale),
  comments: Math.round(1_000_000 * scale),
  subscriptions: Math.round(500_000 * scale),
  playlists: Math.round(100_000 * scale),
  historyRows: Math.round(1_000_000 * scale),
  reports: Math.round(5_000 * scale),
};
/** The video whose comments are paged deep in the benchmarks gets this many. */
const DEEP_COMMENTS = Math.min(5_000, N.comments);

if (!fs.existsSync(path.join(root, 'server/dist/db/client.js'))) {
  console.error('server/dist is missing: run `npm run build` first.');
  process.exit(1);
}
const mod = serverModule();
const { openDatabase } = await mod('db/client');
const { Passwords } = await mod('modules/users/passwords');

const rand = mulberry32(seed);
const vocabulary = makeVocabulary(rand, 20_000);
const pickWord = zipfPicker(rand, vocabulary.length, 1.05);
const words = (min, max) => {
  const n = min + Math.floor(rand() * (max - min + 1));
  const out = [];
  for (let i = 0; i < n; i++) out.push(vocabulary[pickWord()]);
  return out.join(' ');
};
const ID_CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const newId = () => {
  let s = '';
  for (let i = 0; i < 16; i++) s += ID_CHARS[Math.floor(rand() * 64)];
  return s;
};

const now = Date.now();
const YEARS_3 = 3 * 365 * 86_400_000;
const started = Date.now();
const log = (msg) => console.log(`[${((Date.now() - started) / 1000).toFixed(1)} s] ${msg}`);

const target = await openTarget();
log(`schema ready on ${kind}; scale ${scale}: ${JSON.stringify(N)}`);
const passwordHash = await new Passwords().hash(PASSWORD);

// Channels (every account is a channel; some upload far more than others).
const users = [];
for (let i = 0; i < N.channels; i++) {
  const created = now - YEARS_3 - Math.floor(rand() * 86_400_000 * 30);
  users.push({
    id: newId(),
    username: `user${i}`,
    email: `user${i}@catalogue.example`,
    full_name: `${cap(vocabulary[pickWord()])} ${cap(vocabulary[pickWord()])}`,
    password_hash: passwordHash,
    role: i === 0 ? 'admin' : 'user',
    created_at: created,
    updated_at: created,
  });
}
await target.insert('users', ['id', 'username', 'email', 'full_name', 'password_hash', 'role', 'created_at', 'updated_at'], users);
log(`${users.length} channels`);

// Videos: owners Zipf-distributed, dates spread over three years, a few not public or not ready.
const pickOwner = zipfPicker(rand, users.length, 0.8);
const videoIds = new Array(N.videos);
const videoOwner = new Array(N.videos);
await target.insertMany(
  'videos',
  [
    'id',
    'owner_id',
    'title',
    'description',
    'owner_text',
    'duration',
    'views',
    'status',
    'progress',
    'visibility',
    'listed',
    'watchable',
    'width',
    'height',
    'video_key',
    'thumbnail_key',
    'source_bytes',
    'created_at',
    'updated_at',
  ],
  N.videos,
  (i) => {
    const owner = users[pickOwner()];
    const id = newId();
    videoIds[i] = id;
    videoOwner[i] = owner.id;
    // The first video (the one with thousands of comments) is always public and ready.
    const r = i === 0 ? 1 : rand();
    const visibility = r < 0.02 ? 'private' : r < 0.04 ? 'unlisted' : 'public';
    const status = i > 0 && rand() < 0.01 ? 'processing' : 'ready';
    const watchable = status === 'ready' && visibility !== 'private' ? 1 : 0;
    const created = now - Math.floor(rand() * YEARS_3);
    return {
      id,
      owner_id: owner.id,
      title: cap(words(3, 9)),
      description: words(8, 40),
      owner_text: `${owner.username} ${owner.full_name}`,
      duration: 10 + Math.floor(rand() * 1200),
      views: Math.floor(1 / (rand() + 1e-4)),
      status,
      progress: status === 'ready' ? 100 : 40,
      visibility,
      listed: watchable && visibility === 'public' ? 1 : 0,
      watchable,
      width: 1280,
      height: 720,
      video_key: `videos/${id}/video.mp4`,
      thumbnail_key: `videos/${id}/thumbnail.jpg`,
      source_bytes: 1_000_000 + Math.floor(rand() * 50_000_000),
      created_at: created,
      updated_at: created,
    };
  },
);
log(`${N.videos} videos`);

// Likes: distinct (user, video) pairs, popular videos liked more.
const pickVideo = zipfPicker(rand, N.videos, 0.9);
await target.insertMany(
  'likes',
  ['user_id', 'target_type', 'target_id', 'created_at'],
  N.likes,
  uniquePairs(
    () => [users[Math.floor(rand() * users.length)].id, videoIds[pickVideo()]],
    ([user, video]) => ({ user_id: user, target_type: 'video', target_id: video, created_at: now - Math.floor(rand() * YEARS_3) }),
  ),
);
log(`${N.likes} likes`);

// Comments: the first video gets DEEP_COMMENTS of them, the rest spread by popularity.
await target.insertMany('comments', ['id', 'video_id', 'owner_id', 'content', 'created_at', 'updated_at'], N.comments, (i) => {
  const video = i < DEEP_COMMENTS ? videoIds[0] : videoIds[pickVideo()];
  const created = now - Math.floor(rand() * YEARS_3);
  return {
    id: newId(),
    video_id: video,
    owner_id: users[Math.floor(rand() * users.length)].id,
    content: cap(words(4, 30)),
    created_at: created,
    updated_at: created,
  };
});
log(`${N.comments} comments`);

// Subscriptions: followers pick popular channels more often; nobody follows themself.
await target.insertMany(
  'subscriptions',
  ['subscriber_id', 'channel_id', 'created_at'],
  N.subscriptions,
  uniquePairs(
    () => {
      const a = users[Math.floor(rand() * users.length)].id;
      const b = users[pickOwner()].id;
      return a === b ? null : [a, b];
    },
    ([subscriber, channel]) => ({ subscriber_id: subscriber, channel_id: channel, created_at: now - Math.floor(rand() * YEARS_3) }),
  ),
);
log(`${N.subscriptions} subscriptions`);

// Playlists of up to 20 videos each.
const playlistVideos = [];
await target.insertMany('playlists', ['id', 'owner_id', 'name', 'description', 'videos_count', 'created_at', 'updated_at'], N.playlists, () => {
  const id = newId();
  const count = 1 + Math.floor(rand() * 20);
  const seen = new Set();
  for (let p = 0; p < count; p++) {
    const video = videoIds[pickVideo()];
    if (seen.has(video)) continue;
    seen.add(video);
    playlistVideos.push({ playlist_id: id, video_id: video, position: seen.size - 1, added_at: now - Math.floor(rand() * YEARS_3) });
  }
  const created = now - Math.floor(rand() * YEARS_3);
  return {
    id,
    owner_id: users[Math.floor(rand() * users.length)].id,
    name: cap(words(1, 4)),
    description: words(0, 10),
    videos_count: seen.size,
    created_at: created,
    updated_at: created,
  };
});
await target.insertMany('playlist_videos', ['playlist_id', 'video_id', 'position', 'added_at'], playlistVideos.length, (i) => playlistVideos[i]);
log(`${N.playlists} playlists, ${playlistVideos.length} playlist entries`);

// Watch histories: runs of videos per viewer, so "watched next" pairs exist.
await target.insertMany(
  'watch_history',
  ['user_id', 'video_id', 'watched_at'],
  N.historyRows,
  uniquePairs(
    () => [users[Math.floor(rand() * users.length)].id, videoIds[pickVideo()]],
    ([user, video]) => ({ user_id: user, video_id: video, watched_at: now - Math.floor(rand() * 30 * 86_400_000) }),
  ),
);
log(`${N.historyRows} watch-history rows`);

// Views per day over the last 28 days for the most popular videos (trending and the studio chart).
const today = Math.floor(now / 86_400_000);
const dailyVideos = Math.min(N.videos, Math.round(20_000 * Math.max(scale, 0.01)));
await target.insertMany('video_daily_views', ['video_id', 'day', 'views'], dailyVideos * 28, (i) => ({
  video_id: videoIds[Math.floor(i / 28)],
  day: today - (i % 28),
  views: 1 + Math.floor(rand() * 500),
}));
log(`${dailyVideos * 28} daily-view rows`);

// Open reports of videos, one per reporter and video.
const reasons = ['spam', 'harassment', 'sexual', 'violence', 'copyright', 'other'];
await target.insertMany(
  'reports',
  ['id', 'reporter_id', 'target_type', 'target_id', 'reason', 'note', 'state', 'created_at'],
  N.reports,
  uniquePairs(
    () => [users[Math.floor(rand() * users.length)].id, videoIds[pickVideo()]],
    ([reporter, video]) => ({
      id: newId(),
      reporter_id: reporter,
      target_type: 'video',
      target_id: video,
      reason: reasons[Math.floor(rand() * reasons.length)],
      note: words(0, 8),
      state: 'open',
      created_at: now - Math.floor(rand() * 86_400_000 * 10),
    }),
  ),
);
log(`${N.reports} reports`);

await target.recount();
log('counters recounted, search index checked');
const summary = await target.summary();
await target.close();
// What the list benchmarks ask for: the video with thousands of comments, the biggest channel, and
// words from the commonest to a rare one (rank 15,000 of 20,000: about a hundred videos at scale 1).
const landmarks = {
  deepCommentsVideo: videoIds[0],
  bigChannel: users[0].username,
  bigChannelId: users[0].id,
  commonestWord: vocabulary[0],
  commonWord: 'photos',
  rareWord: vocabulary[Math.min(vocabulary.length - 1, 15_000)],
  phrase: 'garden river',
};
console.log(JSON.stringify({ db: kind, scale, seed, seconds: Math.round((Date.now() - started) / 1000), ...summary, landmarks }));

function cap(s) {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** Row maker that retries its picker until it yields a pair it has not made yet. */
function uniquePairs(pick, make) {
  const seen = new Set();
  return () => {
    for (;;) {
      const pair = pick();
      if (!pair) continue;
      const key = `${pair[0]}|${pair[1]}`;
      if (seen.has(key)) continue;
      seen.add(key);
      return make(pair);
    }
  };
}

async function openTarget() {
  if (kind === 'sqlite') {
    const file = path.resolve(arg('file', 'data/catalogue.db'));
    for (const suffix of ['', '-wal', '-shm']) fs.rmSync(file + suffix, { force: true });
    const handle = await openDatabase({ database: { kind: 'sqlite', file } });
    await handle.close();
    const { sqliteTarget } = await import('./lib/catalogue-sqlite.mjs');
    return sqliteTarget(file);
  }
  if (kind === 'postgres') {
    const url = arg('url', 'postgres://postgres@127.0.0.1:5432/reelhouse_catalogue');
    const { recreatePostgresDatabase, postgresTarget } = await import('./lib/catalogue-postgres.mjs');
    await recreatePostgresDatabase(url);
    const handle = await openDatabase({ database: { kind: 'postgres', url } });
    await handle.close();
    return postgresTarget(url);
  }
  throw new Error(`--db must be sqlite or postgres, not ${kind}`);
}
