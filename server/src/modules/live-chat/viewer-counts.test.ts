import { afterEach, describe, expect, it } from 'vitest';
import { newId } from '../../lib/ids.js';
import { createLogger } from '../../logger.js';
import { InProcessViewerCounts, RedisViewerCounts, STALE_REPORT_MS, type ViewerCounts } from './viewer-counts.js';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const logger = createLogger('silent');

describe('viewer counts', () => {
  const opened: ViewerCounts[] = [];
  afterEach(async () => {
    for (const c of opened.splice(0)) await c.close();
  });
  const onRedis = (processId: string, now?: () => number) => {
    const counts = new RedisViewerCounts(REDIS_URL, processId, logger, now);
    opened.push(counts);
    return counts;
  };

  it('in one process, its own counts are the totals', async () => {
    const counts = new InProcessViewerCounts();
    await counts.report(new Map([['a', 2]]));
    expect(await counts.total('a')).toBe(2);
    expect(await counts.total('b')).toBe(0);
    await counts.report(new Map());
    expect(await counts.total('a')).toBe(0);
  });

  it("on Redis, every process's report of a live is summed, and one that stops reporting it is taken back", async () => {
    const live = newId();
    const [a, b] = [onRedis(`a-${newId()}`), onRedis(`b-${newId()}`)];
    await a.report(new Map([[live, 2]]));
    await b.report(new Map([[live, 1]]));
    expect(await a.total(live)).toBe(3);
    expect(await b.total(live)).toBe(3);
    await b.report(new Map());
    expect(await a.total(live)).toBe(2);
    // A process closing takes its viewers back at once.
    await a.close();
    opened.splice(opened.indexOf(a), 1);
    expect(await b.total(live)).toBe(0);
  });

  it('on Redis, a report older than the staleness limit (a process that died) no longer counts', async () => {
    const live = newId();
    const dead = onRedis(`dead-${newId()}`);
    await dead.report(new Map([[live, 4]]));
    const later = onRedis(`later-${newId()}`, () => Date.now() + STALE_REPORT_MS + 1000);
    await later.report(new Map([[live, 1]]));
    expect(await later.total(live)).toBe(1);
    // Read now, the dead one's report is gone for everyone: it was removed, not just skipped.
    expect(await onRedis(`now-${newId()}`).total(live)).toBe(1);
  });
});
