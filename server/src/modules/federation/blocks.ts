import type { FederationBlock } from '@reelhouse/contract';
import { conflict, notFound } from '../../http/errors.js';
import { toIso } from '../../lib/ids.js';
import type { Actor, AuditLogRepository } from '../audit/audit-log.repository.js';
import type { FederationBlocksRepository } from './blocks.repository.js';
import type { PublicChanges } from '../../lib/public-changes.js';

/**
 * The domains a server's host falls under, most precise first: `a.b.example.com:8443` is under
 * itself, `a.b.example.com`, `b.example.com` and `example.com` (never a bare top-level label).
 */
export function domainsOf(host: string): string[] {
  const lower = host.toLowerCase();
  const name = lower.replace(/:\d+$/, '');
  const labels = name.split('.');
  const parents = labels.slice(0, -1).map((_, i) => labels.slice(i).join('.'));
  return [...new Set([lower, ...(parents.length ? parents : [name])])];
}

/** Why a remote account is banned while its server is blocked: unblocking lifts these bans, and only these. */
export const blockedServerReason = (domain: string) => `Its server, ${domain}, is blocked`;

/**
 * Admins' blocks of remote servers: nothing from a blocked server is taken in (its activities are
 * refused), nothing is sent to it (its followers are forgotten when it is blocked, and no new one
 * is kept), no channel here follows anyone there, and what its channels and members had here (their
 * videos, comments and likes) is hidden, as a ban hides an account's, until it is unblocked. Each
 * block and unblock is in the audit log.
 */
export class FederationBlocks {
  constructor(
    private readonly deps: {
      blocks: FederationBlocksRepository;
      audit: AuditLogRepository;
      /** Bans and unbans an account with everything kept in step (moderation's). */
      bans: { setBanned(actor: Actor, userId: string, ban: { reason: string } | null): Promise<boolean> };
      /** Told after a block or unblock hid or showed anything: those answers are on public pages. */
      changes?: PublicChanges;
      now?: () => number;
    },
  ) {}

  async list(): Promise<FederationBlock[]> {
    return (await this.deps.blocks.list()).map((b) => ({ domain: b.domain, blockedBy: b.blocked_by, createdAt: toIso(b.created_at) }));
  }

  async block(actor: Actor, domain: string): Promise<FederationBlock> {
    const now = (this.deps.now ?? Date.now)();
    if (!(await this.deps.blocks.add(domain, actor.id, now))) throw conflict('This domain is already blocked');
    const forgotten = await this.deps.blocks.forgetActorsOn(domain);
    let hidden = 0;
    for (const account of await this.deps.blocks.remoteAccountsOn(domain)) {
      if (account.banned_at === null && (await this.deps.bans.setBanned(actor, account.id, { reason: blockedServerReason(domain) }))) hidden++;
    }
    await this.deps.audit.record(actor, { action: 'federation.block', target: { type: 'domain', id: domain }, details: { forgotten, hidden } });
    if (hidden) await this.deps.changes?.changed();
    return { domain, blockedBy: actor.id, createdAt: toIso(now) };
  }

  async unblock(actor: Actor, domain: string): Promise<void> {
    if (!(await this.deps.blocks.remove(domain))) throw notFound('Blocked domain');
    // Accounts banned for their own sake stay banned.
    let shown = 0;
    for (const account of await this.deps.blocks.remoteAccountsOn(domain)) {
      if (account.ban_reason === blockedServerReason(domain) && (await this.deps.bans.setBanned(actor, account.id, null))) shown++;
    }
    if (shown) await this.deps.changes?.changed();
    await this.deps.audit.record(actor, { action: 'federation.unblock', target: { type: 'domain', id: domain } });
  }

  /** Whether a remote address (an actor, an inbox, a key) is on a blocked server. */
  async blocks(address: string | URL): Promise<boolean> {
    let host: string;
    try {
      host = new URL(address).host;
    } catch {
      return false;
    }
    return this.deps.blocks.anyBlocked(domainsOf(host));
  }
}
