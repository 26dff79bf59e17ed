import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Role } from '../db/schema.js';
import { forbidden, unauthorized } from './errors.js';

export interface AuthUser {
  id: string;
  username: string;
  sessionId: string;
  isDemo: boolean;
  role: Role;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in user, or null. Set for every request from the access token, if any. */
    user: AuthUser | null;
  }
}

export const ACCESS_COOKIE = 'accessToken';
export const REFRESH_COOKIE = 'refreshToken';

export type AccessTokenVerifier = (token: string) => Promise<AuthUser | null>;

/** Reads the access token from the cookie or a Bearer header; an invalid token means signed out. */
export const authPlugin = fp(async (app: FastifyInstance, opts: { verify: AccessTokenVerifier }) => {
  app.decorateRequest('user', null);
  app.addHook('onRequest', async (request) => {
    // Only API calls read the caller: media segments and the client's files, fetched many times a
    // minute by every player, would otherwise cost a session lookup each.
    if (!request.url.startsWith('/api/')) return;
    const header = request.headers.authorization;
    const bearer = header?.startsWith('Bearer ') ? header.slice(7).trim() : undefined;
    const token = bearer || request.cookies[ACCESS_COOKIE];
    request.user = token ? await opts.verify(token) : null;
  });
});

/** preHandler for routes that need a signed-in user. */
export async function requireUser(request: FastifyRequest, _reply: FastifyReply) {
  if (!request.user) throw unauthorized('Unauthorized request');
}

/** The signed-in user of a route guarded by requireUser. */
export function currentUser(request: FastifyRequest): AuthUser {
  if (!request.user) throw unauthorized('Unauthorized request');
  return request.user;
}

/** preHandler for moderation: moderators and admins. Signed out is 401, anyone else 403. */
export async function requireStaff(request: FastifyRequest, _reply: FastifyReply) {
  if (!request.user) throw unauthorized('Unauthorized request');
  if (request.user.role !== 'admin' && request.user.role !== 'moderator') throw forbidden('Only moderators and admins may do that');
}

/** preHandler for running the site: admins only. Signed out is 401, anyone else 403. */
export async function requireAdmin(request: FastifyRequest, _reply: FastifyReply) {
  if (!request.user) throw unauthorized('Unauthorized request');
  if (request.user.role !== 'admin') throw forbidden('Only admins may do that');
}
