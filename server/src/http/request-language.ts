import type { Language } from '@reelhouse/contract';
import type { FastifyRequest } from 'fastify';
import { headerLanguage } from '../i18n/languages.js';

/** The language the request's Accept-Language asks for among those the site speaks; null when none. */
export function requestLanguage(request: FastifyRequest): Language | null {
  return headerLanguage(request.headers['accept-language']);
}
