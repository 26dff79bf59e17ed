#!/usr/bin/env node
/**
 * Times single page queries of the lists without a search word, straight through the server's
 * VideosRepository.list (the page and its total, as the route runs them): page 1, page 1,000 and the
 * last page of the home feed in each sort, and of the biggest channel as others and as its owner see
 * it. Median of --runs single runs, one query at a time (no concurrency: this is the cost of one
 * query). The first deep page of a list also builds its kept boundaries; that one-off is printed
 * apart, before the timed runs.
 *
 * Usage: npm run build && node bench/catalogue.mjs --db sqlite --file /tmp/catalogue.db --scale 0.2
 *        node bench/deep-pages.mjs --db sqlite --file /tmp/catalogue.db [--runs 11] [--dist server/dist]
 *        node bench/deep-pages.mjs --db postgres --url postgres://127.0.0.1/reelhouse_catalogue
 * --dist points at another checkout's server/dist to time that code on the same catalogue.
 */
import os from 'node:os';
import path from 'node:path';
import { arg, catalogueDatabase, root, serverModule } from './lib/cli.mjs';

const kind = arg('db', 'sqlite');
const runs = Number(arg('runs', '11'));
const pageSize = Number(arg('page-size', '12'));
const dist = path.resolve(arg('dist', path.join(root, 'server/dist')));
const mod = serverModule(dist);
const { openDatabase } = await mod('db/client');
const { VideosRepository } = await mod('modules/videos/videos.repository');

const database = catalogueDatabase('/tmp/catalogue.db');
const handle = await openDatabase({ database });
const repo = new VideosRepository(handle.db, handle.dialect);

const big = await handle.db
  .selectFrom('videos')
  .select(['owner_id', (eb) => eb.fn.countAll().as('n')])
  .groupBy('owner_id')
  .orderBy('n', 'desc')
  .limit(1)
  .executeTakeFirstOrThrow();
const lists = [
  { name: 'home feed', filter: {} },
  { name: `channel (${big.n} videos), others' view`, filter: { ownerId: big.owner_id } },
  { name: "channel, owner's view", filter: { ownerId: big.owner_id, includeHidden: true } },
];
const sorts = [
  ['createdAt', 'desc'],
  ['views', 'desc'],
  ['duration', 'asc'],
  ['title', 'asc'],
];

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (x) => (x < 10 ? x.toFixed(2) : x.toFixed(0));
console.log(
  `${kind}, ${dist}, page size ${pageSize}, median (and fastest) of ${runs}, load average ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);
for (const list of lists) {
  for (const [sortBy, sortType] of sorts) {
    const filter = { includeHidden: false, words: [], byRelevance: false, sortBy, sortType, limit: pageSize, offset: 0, ...list.filter };
    const { total } = await repo.list(filter);
    const lastPage = Math.max(1, Math.ceil(total / pageSize));
    const pages = [1, Math.min(1000, lastPage), lastPage];
    const cells = [];
    for (const page of pages) {
      const f = { ...filter, offset: (page - 1) * pageSize };
      const t0 = performance.now();
      await repo.list(f); // warm-up (and, for a deep page of a list not yet kept, the boundaries' build)
      const first = performance.now() - t0;
      const times = [];
      for (let i = 0; i < runs; i++) {
        const s = performance.now();
        await repo.list(f);
        times.push(performance.now() - s);
      }
      cells.push(`p${page} ${ms(median(times))} (min ${ms(Math.min(...times))}) ms${first > 5 * median(times) + 20 ? ` (first ${ms(first)} ms)` : ''}`);
    }
    console.log(`${list.name}, ${sortBy} ${sortType}, ${total} videos: ${cells.join(', ')}`);
  }
}
await handle.close();
