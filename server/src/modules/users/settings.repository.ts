import { randomBytes } from 'node:crypto';
import type { Db } from '../../db/client.js';

/**
 * The signing secret lives in the database, made on first start, so every API process of a site
 * shares it without configuration.
 */
export async function loadSigningSecret(db: Db): Promise<string> {
  const existing = await db.selectFrom('settings').select('value').where('key', '=', 'token_secret').executeTakeFirst();
  if (existing) return existing.value;
  await db.insertInto('settings').values({ key: 'token_secret', value: randomBytes(48).toString('base64url') })
    .onConflict((oc) => oc.column('key').doNothing()).execute();
  const row = await db.selectFrom('settings').select('value').where('key', '=', 'token_secret').executeTakeFirstOrThrow();
  return row.value;
}
