import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../app-context.js';
import { usersRoutes } from './users/users.routes.js';

/** Every API module, mounted under /api/v1. */
export const apiModules: FastifyPluginAsyncZod<{ ctx: AppContext }>[] = [usersRoutes];
