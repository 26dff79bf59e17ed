import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import type { SignedIn, TestApp } from './test-app.js';

/**
 * A second app over the same context (database, services, stores) with the answer cache off: every
 * read runs its handler for its caller, as signed-in reads did before they shared public answers.
 * Its answers are what a shared answer must equal.
 */
export async function fullPathApp(
  t: TestApp,
): Promise<{ get(url: string, as?: SignedIn): Promise<{ status: number; json: unknown }>; close(): Promise<void> }> {
  const config = { ...t.ctx.config, answerCache: { ...t.ctx.config.answerCache, enabled: false } };
  const app: FastifyInstance = await buildApp({ ...t.ctx, config }, t.parts);
  await app.ready();
  return {
    async get(url, as) {
      const res = await app.inject({ method: 'GET', url, headers: as ? { authorization: `Bearer ${as.accessToken}` } : {} });
      return { status: res.statusCode, json: JSON.parse(res.body) };
    },
    close: () => app.close(),
  };
}

/**
 * Counts the SQL statements every database client of the process runs while `work` runs (all
 * Kysely instances share their executor's class): one request's statements, when it runs alone.
 */
export async function countStatements(t: TestApp, work: () => Promise<unknown>): Promise<number> {
  let proto: { executeQuery: (...args: unknown[]) => unknown } | null = Object.getPrototypeOf(t.ctx.db.getExecutor());
  while (proto && !Object.prototype.hasOwnProperty.call(proto, 'executeQuery')) proto = Object.getPrototypeOf(proto);
  if (!proto) throw new Error('no executeQuery on the executor');
  const original = proto.executeQuery;
  let count = 0;
  proto.executeQuery = function (this: unknown, ...args: unknown[]) {
    count++;
    return original.apply(this, args);
  };
  try {
    await work();
  } finally {
    proto.executeQuery = original;
  }
  return count;
}
