import {
  AddPasskeyBody,
  envelope as envelopeSchema,
  LoginResult,
  Passkey,
  PasskeyList,
  PasskeyLoginBody,
  PasskeyOptions,
  PasskeyParams,
  ReturnTokensHeaders,
} from '@reelhouse/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { currentUser, requireUser } from '../../http/auth.js';
import { setAuthCookies, tokensInAnswer } from '../../http/cookies.js';
import { envelope } from '../../http/envelope.js';
import type { Config } from '../../config.js';
import type { PasskeysService } from './passkeys.service.js';
import { relyingParty } from './relying-party.js';
import type { SessionService } from './session.service.js';
import type { UsersService } from './users.service.js';

const tags = ['users'];

/** Passkeys: adding, listing and removing them (signed in), and signing in with one (signed out). */
export const passkeysRoutes: FastifyPluginAsyncZod<{
  passkeys: PasskeysService;
  users: UsersService;
  sessions: SessionService;
  config: Config;
}> = async (app, { passkeys, users, sessions, config }) => {
  const authLimit = { rateLimit: { max: config.rateLimits.authPerMinute, timeWindow: '1 minute' } };
  const rp = (request: FastifyRequest) => relyingParty(config, request);

  app.post(
    '/users/passkeys/registration-options',
    {
      preHandler: requireUser,
      config: authLimit,
      schema: {
        tags,
        summary: 'Options for adding a passkey (navigator.credentials.create); the challenge in them is good once, for 5 minutes',
        response: { 200: envelopeSchema(PasskeyOptions) },
      },
    },
    async (request) => envelope(await passkeys.registrationOptions(currentUser(request), rp(request)), 'Passkey registration options'),
  );

  app.post(
    '/users/passkeys',
    {
      preHandler: requireUser,
      config: authLimit,
      schema: {
        tags,
        summary: 'Add a passkey: the answer of navigator.credentials.create to the registration options, and an optional name',
        body: AddPasskeyBody,
        response: { 201: envelopeSchema(Passkey) },
      },
    },
    async (request, reply) => {
      const added = await passkeys.add(currentUser(request), request.body, rp(request), request.headers['user-agent'] ?? null);
      return reply.status(201).send(envelope(added, 'Passkey added', 201));
    },
  );

  app.get(
    '/users/passkeys',
    { preHandler: requireUser, schema: { tags, summary: "The account's passkeys, newest first", response: { 200: envelopeSchema(PasskeyList) } } },
    async (request) => envelope(await passkeys.list(currentUser(request).id), 'Passkeys fetched'),
  );

  app.delete(
    '/users/passkeys/:passkeyId',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: "Remove one of the account's passkeys; another account's or a missing one is 404",
        params: PasskeyParams,
        response: { 200: envelopeSchema(z.object({})) },
      },
    },
    async (request) => {
      await passkeys.remove(currentUser(request).id, request.params.passkeyId);
      return envelope({}, 'Passkey removed');
    },
  );

  app.post(
    '/users/passkeys/authentication-options',
    {
      config: authLimit,
      schema: {
        tags,
        summary: 'Options for signing in with a passkey (navigator.credentials.get), for any account: no email needed',
        response: { 200: envelopeSchema(PasskeyOptions) },
      },
    },
    async (request) => envelope(await passkeys.authenticationOptions(rp(request)), 'Passkey sign-in options'),
  );

  app.post(
    '/users/login/passkey',
    {
      config: authLimit,
      schema: {
        tags,
        summary: 'Sign in with a passkey: as POST /users/login (same cookies and answer), with the answer of navigator.credentials.get',
        headers: ReturnTokensHeaders,
        body: PasskeyLoginBody,
        response: { 200: envelopeSchema(LoginResult) },
      },
    },
    async (request, reply) => {
      const row = await passkeys.signIn(request.body, rp(request));
      const tokens = await sessions.open(row.id, { userAgent: request.headers['user-agent'] ?? null, ip: request.ip });
      setAuthCookies(request, reply, tokens);
      return envelope({ user: users.present(row), ...tokensInAnswer(request, tokens) }, 'User logged in successfully');
    },
  );
};
