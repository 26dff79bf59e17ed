import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.js';

export type BlockRow = Database['federation_blocks'];

/** The remote servers admins blocked, and the rows of theirs a block removes. */
export class FederationBlocksRepository {
  constructor(private readonly db: Kysely<Database>) {}

  list(): Promise<BlockRow[]> {
    return this.db.selectFrom('federation_blocks').selectAll().orderBy('domain').execute();
  }

  /** False when the domain was blocked already. */
  async add(domain: string, blockedBy: string | null, now: number): Promise<boolean> {
    const r = await this.db
      .insertInto('federation_blocks')
      .values({ domain, blocked_by: blockedBy, created_at: now })
      .onConflict((oc) => oc.column('domain').doNothing())
      .executeTakeFirst();
    return Number(r.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  async remove(domain: string): Promise<boolean> {
    const r = await this.db.deleteFrom('federation_blocks').where('domain', '=', domain).executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  }

  /** Whether any of these domains is blocked. */
  async anyBlocked(domains: string[]): Promise<boolean> {
    if (!domains.length) return false;
    const row = await this.db.selectFrom('federation_blocks').select('domain').where('domain', 'in', domains).limit(1).executeTakeFirst();
    return row !== undefined;
  }

  /** Forgets the followers and follows of actors on the domain (addressOnDomain). */
  async forgetActorsOn(domain: string): Promise<number> {
    const onDomain = addressOnDomain(sql.ref('actor_id'), domain);
    return this.db.transaction().execute(async (trx) => {
      const followers = await trx.deleteFrom('federation_followers').where(onDomain).executeTakeFirst();
      const following = await trx.deleteFrom('federation_following').where(onDomain).executeTakeFirst();
      return Number(followers.numDeletedRows) + Number(following.numDeletedRows);
    });
  }

  /** The accounts standing for remote channels and members on the domain, with the reason of their ban (if any). */
  remoteAccountsOn(domain: string): Promise<{ id: string; ban_reason: string | null; banned_at: number | null }[]> {
    return this.db
      .selectFrom('users')
      .select(['id', 'ban_reason', 'banned_at'])
      .where('remote_actor_id', 'is not', null)
      .where(addressOnDomain(sql.ref('remote_actor_id'), domain))
      .execute();
  }
}

/**
 * Whether an address column is on the domain or its subdomains, at any port and either scheme.
 * Host names hold no LIKE wildcards (the contract allows letters, digits, dots and hyphens), so the
 * patterns match only what they say.
 */
function addressOnDomain(column: ReturnType<typeof sql.ref>, domain: string) {
  const patterns = ['http', 'https'].flatMap((scheme) => [
    `${scheme}://${domain}/%`,
    `${scheme}://${domain}:%`,
    `${scheme}://%.${domain}/%`,
    `${scheme}://%.${domain}:%`,
  ]);
  // A port given with the domain blocks that port only: no subdomain or other-port pattern then.
  const exact = domain.includes(':') ? ['http', 'https'].map((scheme) => `${scheme}://${domain}/%`) : patterns;
  return sql<boolean>`(${sql.join(
    exact.map((p) => sql`${column} like ${p}`),
    sql` or `,
  )})`;
}
