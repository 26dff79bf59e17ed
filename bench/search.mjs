#!/usr/bin/env node
/**
 * Times the search queries one at a time on a catalogue made by bench/catalogue.mjs: for each
 * search (the commonest word, a common word, a rare word, two words; by relevance and with an
 * explicit sort; the first page and a few pages deep) the median of a few runs of the search's
 * list (wall clock, and on SQLite the process's CPU time) and one check of 50 caption hits.
 *
 * Usage: npm run build && node bench/search.mjs --db sqlite --file /tmp/catalogue.db [--runs 5]
 *        node bench/search.mjs --db postgres --url postgres://127.0.0.1/reelhouse_catalogue
 * --server DIR takes the server's build from another checkout's server/dist (to time an older one).
 */
import path from 'node:path';
import { arg, catalogueDatabase, root, serverModule } from './lib/cli.mjs';

const kind = arg('db', 'sqlite');
const runs = Number(arg('runs', '5'));
const mod = serverModule(path.resolve(arg('server', path.join(root, 'server/dist'))));
const { openDatabase } = await mod('db/client');

const database = catalogueDatabase('data/catalogue.db');
const handle = await openDatabase({ database }, { migrate: false });
const search = await searchOf(handle);

/** The build's search; an older build (--server) kept it inside the videos repository. */
async function searchOf({ db, dialect }) {
  try {
    const { createSearch } = await mod('modules/search/search.factory');
    return createSearch(db, dialect);
  } catch (err) {
    if (err.code !== 'ERR_MODULE_NOT_FOUND') throw err;
    const { VideosRepository } = await mod('modules/videos/videos.repository');
    const repo = new VideosRepository(db, dialect);
    return { videos: (filter) => repo.list(filter), matchingAmong: (filter, ids) => repo.matchingAmong(filter, ids) };
  }
}

const searches = [
  ['"the", relevance, page 1', ['the'], {}],
  ['"the", relevance, page 5', ['the'], { page: 5 }],
  ['"the", newest first, page 1', ['the'], { sortBy: 'createdAt' }],
  ['"the", most viewed, page 5', ['the'], { sortBy: 'views', page: 5 }],
  ['"photos" (common), relevance, page 1', ['photos'], {}],
  ['"photos", newest first, page 1', ['photos'], { sortBy: 'createdAt' }],
  ['"zetoquigu" (rare), relevance, page 1', ['zetoquigu'], {}],
  ['"zetoquigu", newest first, page 1', ['zetoquigu'], { sortBy: 'createdAt' }],
  ['"garden river", relevance, page 1', ['garden', 'river'], {}],
];

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const out = [];
for (const [label, words, o] of searches) {
  const filter = {
    includeHidden: false,
    words,
    byRelevance: !o.sortBy,
    sortBy: o.sortBy ?? 'createdAt',
    sortType: 'desc',
    limit: 12,
    offset: ((o.page ?? 1) - 1) * 12,
  };
  const times = [];
  const cpu = [];
  let result;
  for (let i = 0; i < runs + 1; i++) {
    const t0 = process.hrtime.bigint();
    const c0 = process.cpuUsage();
    result = await search.videos(filter);
    const c = process.cpuUsage(c0);
    const ms = Number(process.hrtime.bigint() - t0) / 1e6;
    // The first run warms the cache. On SQLite the query runs in this process, so its CPU time is
    // the query's cost even when a busy machine makes the wall-clock time wait for a core.
    if (i > 0) {
      times.push(ms);
      cpu.push((c.user + c.system) / 1000);
    }
  }
  const ids = (await search.videos({ ...filter, offset: 0, limit: 50 })).rows.map((r) => r.id);
  const t0 = process.hrtime.bigint();
  await search.matchingAmong(filter, ids);
  const checkMs = Number(process.hrtime.bigint() - t0) / 1e6;
  out.push({
    search: label,
    ms: +median(times).toFixed(1),
    ...(kind === 'sqlite' ? { cpuMs: +median(cpu).toFixed(1) } : {}),
    rows: result.rows.length,
    total: result.total,
    counted: result.counted ?? true,
    captionCheckMs: +checkMs.toFixed(1),
  });
}
console.table(out);
await handle.close();
