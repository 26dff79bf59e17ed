import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { registerFairTurns } from './fair-turns.js';

/** Burns the CPU synchronously, as a request reading SQLite does. */
function busyFor(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    /* spin */
  }
}

async function serve(fair: boolean): Promise<{ app: FastifyInstance; port: number }> {
  const app = Fastify();
  if (fair) registerFairTurns(app);
  app.get('/busy', async () => {
    busyFor(2);
    return { ok: true };
  });
  app.get('/hello', async () => ({ hello: true }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, port: (app.server.address() as AddressInfo).port };
}

function get(agent: http.Agent, port: number, path: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port, path, agent }, (res) => {
      res.resume();
      res.on('end', () => resolve());
    });
    req.on('error', reject);
  });
}

/**
 * Keeps `clients` keep-alive connections busy back to back, then opens one new connection and
 * counts the busy answers sent before the newcomer's. Served in turn, a newcomer waits about one
 * round of the others; without fair turns it waited several.
 */
async function busyServedBeforeNewcomer(port: number, clients: number): Promise<number> {
  let served = 0;
  let stop = false;
  const loops = Array.from({ length: clients }, async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    while (!stop) {
      await get(agent, port, '/busy');
      served++;
    }
    agent.destroy();
  });
  await new Promise((r) => setTimeout(r, 300));
  const newcomer = new http.Agent({ keepAlive: false });
  const before = served;
  await get(newcomer, port, '/hello');
  const count = served - before;
  stop = true;
  await Promise.all(loops);
  return count;
}

let running: FastifyInstance | null = null;
afterEach(async () => {
  await running?.close();
  running = null;
});

describe('fair turns', () => {
  it('a new connection is answered after about one round of the busy ones, not several', async () => {
    const clients = 30;
    const { app, port } = await serve(true);
    running = app;
    const counts: number[] = [];
    for (let i = 0; i < 5; i++) counts.push(await busyServedBeforeNewcomer(port, clients));
    counts.sort((a, b) => a - b);
    const median = counts[2];
    console.log(`fair turns: busy answers before a newcomer's, ${clients} busy connections: ${counts.join(', ')}`);
    // In line behind the busy connections' requests already waiting, plus their next ones read in
    // the same poll: under three rounds. Without fair turns the median was about eight rounds (246 of 30 connections).
    expect(median, `busy answers before the newcomer's, per try: ${counts.join(', ')}`).toBeLessThanOrEqual(clients * 3);
  }, 60_000);

  it('queues nothing on a quiet server, and serves queued requests first come, first served', async () => {
    // The pass's first two readings of the clock say it has just begun; every later one says it
    // has spent 25 ms, past the budget.
    let readings = 0;
    const app = Fastify();
    const turns = registerFairTurns(app, { budgetMs: 20, now: () => (readings++ < 2 ? 0 : 25) });
    const order: string[] = [];
    const waitingWhenStarted: number[] = [];
    app.addHook('onRequest', async () => {
      waitingWhenStarted.push(turns.waiting());
    });
    app.get('/q/:name', async (request) => {
      const { name } = request.params as { name: string };
      order.push(name);
      return { name };
    });
    await app.ready();
    running = app;

    const answers = await Promise.all(['first', 'a', 'b', 'c'].map((n) => app.inject({ url: `/q/${n}` })));
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 200]);
    expect(order).toEqual(['first', 'a', 'b', 'c']);
    // a, b and c waited: when a started, b and c were still in line.
    expect(Math.max(...waitingWhenStarted)).toBeGreaterThanOrEqual(2);
    expect(turns.waiting()).toBe(0);
  });

  it('lets requests straight through while a pass is within its budget', async () => {
    const app = Fastify();
    const turns = registerFairTurns(app);
    const waitingWhenStarted: number[] = [];
    app.addHook('onRequest', async () => {
      waitingWhenStarted.push(turns.waiting());
    });
    app.get('/', async () => ({ ok: true }));
    await app.ready();
    running = app;
    for (let i = 0; i < 5; i++) expect((await app.inject({ url: '/' })).statusCode).toBe(200);
    expect(waitingWhenStarted).toEqual([0, 0, 0, 0, 0]);
  });

  it('lets an exempt request (the healthcheck) ahead of the queued ones', async () => {
    let readings = 0;
    const app = Fastify();
    registerFairTurns(app, { budgetMs: 20, now: () => (readings++ < 2 ? 0 : 25), exempt: (url) => url === '/health' });
    const order: string[] = [];
    app.get('/q/:name', async (request) => {
      order.push((request.params as { name: string }).name);
      return {};
    });
    app.get('/health', async () => {
      order.push('health');
      return {};
    });
    await app.ready();
    running = app;
    const queued = Array.from({ length: 8 }, (_, i) => `q${i}`);
    const urls = ['/q/first', ...queued.map((n) => `/q/${n}`), '/health'];
    const answers = await Promise.all(urls.map((url) => app.inject({ url })));
    expect(answers.every((a) => a.statusCode === 200)).toBe(true);
    // first ran within the pass and the others queued, one per pass; the healthcheck, asked last,
    // did not wait for them all (behind them it would have come last).
    expect(order.slice(0, 1)).toEqual(['first']);
    expect(order.filter((n) => n !== 'health')).toEqual(['first', ...queued]);
    expect(order.indexOf('health'), order.join(' ')).toBeLessThan(4);
  });
});
