import { type Actor, Collection, type Context, Create, type Federation, isActor, Video } from '@fedify/fedify';
import { notFound, unprocessable } from '../../http/errors.js';
import type { PublicChanges } from '../../lib/public-changes.js';
import type { VideoEvents } from '../videos/video-events.js';
import type { ChannelFollows } from './channel-follows.js';
import type { RemoteChannelRow, RemoteChannelsRepository } from './remote-channels.repository.js';
import { remoteChannelOf, remoteVideoOf, sameOrigin } from './remote-objects.js';

/** Recent videos read from a channel's outbox when it is first looked up, so its page is not empty. */
const RECENT_VIDEOS = 12;

/** How a handle may be written: @name@host, name@host, or the actor's address. */
const HANDLE = /^@?([^\s@/]+)@([a-z0-9.-]+(?::\d{1,5})?)$/i;

export interface RemoteChannelsDeps {
  federation: Federation<void>;
  rows: RemoteChannelsRepository;
  follows: ChannelFollows;
  origin: string;
  /** Whether an address is on a server admins blocked. */
  blocked: (address: string) => Promise<boolean>;
  /** Told when a remote video arrives (notifications to subscribers) or changes. */
  events?: Partial<Pick<VideoEvents, 'videoListed' | 'videoChanged'>>;
  changes?: PublicChanges;
  logger: { warn(obj: object, msg?: string): void };
  now?: () => number;
}

/**
 * Channels and videos of other servers as this site keeps them: a handle looked up becomes a
 * channel here (an account that never signs in) with its recent videos; subscribing to it sends a
 * Follow from the subscriber's own channel; what the remote channel then publishes, edits and
 * deletes arrives in the inbox and is kept, changed or removed here. Media stay on their origin.
 */
export class RemoteChannels {
  private readonly now: () => number;

  constructor(private readonly deps: RemoteChannelsDeps) {
    this.now = deps.now ?? Date.now;
  }

  /** The local username a handle or address stands for, after fetching it from its server; a handle of this site answers its own username. */
  async lookup(handle: string): Promise<string> {
    const wanted = handle.trim();
    const own = HANDLE.exec(wanted);
    if (own && own[2]!.toLowerCase() === new URL(this.deps.origin).host) return own[1]!.toLowerCase();
    const address = own ? `@${own[1]}@${own[2]}` : wanted;
    const host = own ? own[2]! : URL.canParse(wanted) ? new URL(wanted).host : null;
    if (!host) throw notFound('Channel');
    if (await this.deps.blocked(own ? `https://${host}/` : wanted)) throw unprocessable(`${host} is blocked here`);
    const ctx = this.deps.federation.createContext(new URL(this.deps.origin));
    const actor = await ctx.lookupObject(address).catch((err: unknown) => {
      this.deps.logger.warn({ err, handle: address }, 'a remote channel could not be looked up');
      return null;
    });
    if (!isActor(actor)) throw notFound('Channel');
    const channel = await remoteChannelOf(actor);
    if (!channel || (await this.deps.blocked(channel.actorId))) throw notFound('Channel');
    const row = await this.deps.rows.upsertChannel(channel, this.now());
    await this.readRecentVideos(ctx, actor.outboxId, row);
    await this.deps.changes?.changed();
    return row.username;
  }

  /** The channel's newest videos from its outbox, kept here so its page shows them. A server that will not say is no error. */
  private async readRecentVideos(ctx: Context<void>, outbox: URL | null, owner: RemoteChannelRow): Promise<void> {
    if (!outbox) return;
    try {
      const collection = await ctx.lookupObject(outbox);
      if (!(collection instanceof Collection)) return;
      let read = 0;
      let kept = 0;
      // Newest first. PeerTube's outbox mixes in Announces of others' videos, which are skipped but
      // counted, so a channel that only shares never has its whole history walked.
      for await (const item of ctx.traverseCollection(collection, { suppressError: true })) {
        if (read++ >= RECENT_VIDEOS * 2 || kept >= RECENT_VIDEOS) break;
        if (!(item instanceof Create)) continue;
        const object = await item.getObject({ suppressError: true }).catch(() => null);
        if (object instanceof Video && (await this.keepVideo(owner, object, false))) kept++;
      }
    } catch (err) {
      this.deps.logger.warn({ err, outbox: outbox.href }, "a remote channel's videos could not be read");
    }
  }

  /** A remote member who wrote or liked something here, kept (or refreshed) as an account; null for one on a blocked server, unreadable, or banned here. */
  async keepActor(actor: Actor): Promise<RemoteChannelRow | null> {
    const channel = await remoteChannelOf(actor);
    if (!channel || (await this.deps.blocked(channel.actorId))) return null;
    const known = await this.deps.rows.channelByActor(channel.actorId);
    if (known?.banned_at != null) return null;
    return this.deps.rows.upsertChannel(channel, this.now());
  }

  /** A video a remote channel published or edited, kept here; new ones are told to subscribers. */
  async videoArrived(actorId: string, video: Video): Promise<boolean> {
    const owner = await this.ownerOf(actorId, video);
    return owner ? this.keepVideo(owner, video, true) : false;
  }

  private async keepVideo(owner: RemoteChannelRow, video: Video, tell: boolean): Promise<boolean> {
    const parsed = await remoteVideoOf(video);
    if (!parsed || !sameOrigin(parsed.objectId, owner.remote_actor_id)) return false;
    // As the site's own videos carry it, for search.
    const ownerText = `${owner.username} ${owner.full_name}`;
    const kept = await this.deps.rows.upsertVideo(owner.id, parsed, ownerText, this.now());
    if (!kept) return false;
    if (tell) {
      await this.deps.changes?.changed();
      if (kept.created) await this.deps.events?.videoListed?.(kept.id);
      else await this.deps.events?.videoChanged?.(kept.id);
    }
    return true;
  }

  /** A video its remote channel deleted or made private, or the remote account itself deleted: gone here. */
  async videoGone(actorId: string, objectId: string): Promise<boolean> {
    const owner = await this.deps.rows.channelByActor(actorId);
    if (!owner || !sameOrigin(objectId, actorId)) return false;
    if (objectId === actorId) {
      // Its media were never here; its rows go as a member's do when they delete their account.
      await this.deps.rows.deleteAccount(owner.id);
      await this.deps.changes?.changed();
      return true;
    }
    const id = await this.deps.rows.deleteVideo(owner.id, objectId);
    if (!id) return false;
    await this.deps.changes?.changed();
    await this.deps.events?.videoChanged?.(id);
    return true;
  }

  /**
   * The remote channel a Create or Update speaks for: the sender, or a channel the video is
   * attributed to on the sender's server (PeerTube sends as the account that owns the channel).
   * Only channels someone here follows: nobody asked for the others.
   */
  private async ownerOf(actorId: string, video: Video): Promise<RemoteChannelRow | null> {
    for (const candidate of [actorId, ...video.attributionIds.map((u) => u.href)]) {
      if (!sameOrigin(candidate, actorId)) continue;
      const row = await this.deps.rows.channelByActor(candidate);
      if (row && row.banned_at === null && (await this.deps.rows.followed(candidate))) return row;
    }
    return null;
  }

  /** A subscriber's channel follows a remote channel: its Follow goes out, signed with the subscriber's key. */
  async subscribed(subscriberId: string, channelId: string): Promise<void> {
    const remote = await this.deps.rows.channelById(channelId);
    if (remote) await this.deps.follows.followActor(subscriberId, { id: remote.remote_actor_id, inbox: remote.remote_inbox });
  }

  /** The subscriber stopped following: an Undo goes out, and nothing more is delivered to them. */
  async unsubscribed(subscriberId: string, channelId: string): Promise<void> {
    const remote = await this.deps.rows.channelById(channelId);
    if (remote) await this.deps.follows.unfollow(subscriberId, remote.remote_actor_id);
  }
}
