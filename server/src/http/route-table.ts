import type { FastifyInstance, RouteOptions } from 'fastify';

/** One registered route, as the app registered it: what the route-driven test suites walk over. */
export interface RouteEntry {
  method: string;
  /** Fastify's form, e.g. /api/v1/videos/:id */
  url: string;
  schema: RouteOptions['schema'];
}

const tables = new WeakMap<FastifyInstance, RouteEntry[]>();

/** Starts recording every route registered from now on; call it before any route is added. */
export function recordRoutes(app: FastifyInstance) {
  const table: RouteEntry[] = [];
  tables.set(app, table);
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) {
      // HEAD routes are Fastify's automatic twins of GET routes.
      if (method !== 'HEAD') table.push({ method, url: route.url, schema: route.schema });
    }
  });
}

/** The routes an app registered, in registration order. */
export function routeTable(app: FastifyInstance): readonly RouteEntry[] {
  return tables.get(app) ?? [];
}
