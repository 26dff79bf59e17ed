import { randomBytes } from 'node:crypto';
import type { Db } from '../../db/client.js';

/**
 * The signing secret lives in the database, made on first start, so every API process of a site
 * shares it without configuration.
 */
export async function loadSigningSecret(db: Db): Promise<string> {
  const existing = await db.selectFrom('settings').select('value').where('key', '=', 'token_secret').executeTakeFirst();
  if (existing) return existing.value;
  await db
    .insertInto('settings')
    .values({ key: 'token_secret', value: randomBytes(48).toString('base64url') })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
  const row = await db.selectFrom('settings').select('value').where('key', '=', 'token_secret').executeTakeFirstOrThrow();
  return row.value;
}

/** Stores a setting's value, replacing what the key held. */
export async function saveSetting(db: Db, key: string, value: string): Promise<void> {
  await db
    .insertInto('settings')
    .values({ key, value })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
    .execute();
}

/**
 * A random name for the site, made on first start: what it keeps in a shared Redis is kept under
 * it, so that two sites (or two test databases) sharing one Redis never read each other's keys.
 */
export async function loadSiteId(db: Db): Promise<string> {
  const existing = await db.selectFrom('settings').select('value').where('key', '=', 'site_id').executeTakeFirst();
  if (existing) return existing.value;
  await db
    .insertInto('settings')
    .values({ key: 'site_id', value: randomBytes(9).toString('base64url') })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
  const row = await db.selectFrom('settings').select('value').where('key', '=', 'site_id').executeTakeFirstOrThrow();
  return row.value;
}
