import {
  type ActorKeyPair,
  type Context,
  createFederation,
  Endpoints,
  type Federation,
  Group,
  Image,
  type KvStore,
  Note,
  type MessageQueue,
  parseSemVer,
  type Recipient,
  Video,
} from '@fedify/fedify';
import { Temporal } from '@js-temporal/polyfill';
import { translator } from '../../i18n/translator.js';
import { absoluteUrl, channelPageUrl } from '../previews/site-urls.js';
import type { ChannelRow, FederatedVideoRow } from './federation.repository.js';
import type { FederationService } from './federation.service.js';
import { type Inbound, listenToInbox } from './inbox-listeners.js';
import { imageType, textToHtml, type VideoAddresses, videoAddresses, videoCreated, videoObject } from './video-object.js';

/** Where federation's documents live on the site; the actor's id is the channel's account id, so a rename keeps its followers. */
const FEDERATION_PATHS = {
  actor: '/ap/channels/{identifier}',
  inbox: '/ap/channels/{identifier}/inbox',
  sharedInbox: '/ap/inbox',
  outbox: '/ap/channels/{identifier}/outbox',
  followers: '/ap/channels/{identifier}/followers',
  video: '/ap/videos/{id}',
  comment: '/ap/comments/{id}',
  nodeInfo: '/nodeinfo/2.1',
} as const;

export interface ActivityPubDeps {
  service: FederationService;
  kv: KvStore;
  queue: MessageQueue;
  /** The site's public origin (PUBLIC_URL): every id given out is built on it, whatever address a request came to. */
  origin: string;
  allowPrivateAddress: boolean;
  /** The site's name, as admins set it. */
  siteName: () => Promise<string>;
  /** A stored media file's address. */
  mediaUrl: (key: string) => string;
  /** The site's version, for NodeInfo. */
  version: string;
  userAgent: string;
  /** What keeps what other servers send, and answers this site's comments as Notes; built after the library's object, which it uses. */
  inbound: () => (Inbound & { publicNote(commentId: string): Promise<Note | null> }) | null;
  /** Told of deliveries that failed and activities that could not be handled; the library logs nothing of its own here. */
  logger: { warn(obj: object, msg?: string): void };
}

/**
 * The ActivityPub side of the site, built on the library: channels as `Group` actors (as PeerTube
 * publishes its channels), found by WebFinger, with their keys, inbox, outbox of Create(Video),
 * followers, and the site's NodeInfo. HTTP Signatures, on what arrives and what leaves, are the
 * library's; the rules are the service's.
 */
export function buildActivityPub(deps: ActivityPubDeps): Federation<void> {
  const { service, origin } = deps;
  const federation = createFederation<void>({
    kv: deps.kv,
    queue: deps.queue,
    origin,
    allowPrivateAddress: deps.allowPrivateAddress,
    userAgent: deps.userAgent,
    // The process starts the queue once the job queue runs its handlers (composition/federation.ts).
    manuallyStartQueue: true,
    // The library tries again after its backoff; this says which activity, to whom, and why.
    onOutboxError: (err, activity) => deps.logger.warn({ err, activity: activity?.id?.href }, 'federation delivery failed'),
  });
  const abs = (url: string) => new URL(absoluteUrl(origin, url));

  federation
    .setActorDispatcher(FEDERATION_PATHS.actor, async (ctx, identifier) => {
      const channel = await service.channel(identifier);
      if (!channel) return null;
      const keys = await ctx.getActorKeyPairs(identifier);
      // Channels have no description of their own: the words their link previews give them, in English.
      const summary = translator('en')('pages.channelDescription', { name: channel.full_name, site: await deps.siteName() });
      return channelActor(channel, {
        summary,
        id: ctx.getActorUri(identifier),
        inbox: ctx.getInboxUri(identifier),
        sharedInbox: ctx.getInboxUri(),
        outbox: ctx.getOutboxUri(identifier),
        followers: ctx.getFollowersUri(identifier),
        page: abs(channelPageUrl(origin, channel.username)),
        avatar: channel.avatar_key ? abs(deps.mediaUrl(channel.avatar_key)) : null,
        banner: channel.cover_key ? abs(deps.mediaUrl(channel.cover_key)) : null,
        keys,
      });
    })
    .setKeyPairsDispatcher((_ctx, identifier) => service.keyPairs(identifier))
    .mapHandle((_ctx, username) => service.channelIdForUsername(username));

  const site = { origin, mediaUrl: deps.mediaUrl };
  const addresses = (ctx: Context<void>, row: FederatedVideoRow): VideoAddresses => videoAddresses(ctx, row, site);

  federation.setObjectDispatcher(Video, FEDERATION_PATHS.video, async (ctx, { id }) => {
    const row = await service.publicVideo(id);
    return row ? videoObject(row, addresses(ctx, row)) : null;
  });

  // A comment of this site's member, so that the server of a remote video can read what it was sent.
  federation.setObjectDispatcher(Note, FEDERATION_PATHS.comment, async (_ctx, { id }) => (await deps.inbound()?.publicNote(id)) ?? null);

  federation
    .setOutboxDispatcher(FEDERATION_PATHS.outbox, async (ctx, identifier, cursor) => {
      if (cursor === null) return null;
      const page = await service.publicVideos(identifier, cursor);
      if (!page) return null;
      const items = page.items.flatMap((row) => {
        const at = addresses(ctx, row);
        const video = videoObject(row, at);
        return video ? [videoCreated(video, at)] : [];
      });
      return { items, nextCursor: page.nextCursor };
    })
    .setCounter((_ctx, identifier) => service.publicVideoCount(identifier))
    .setFirstCursor(async (_ctx, identifier) => ((await service.channel(identifier)) ? '0' : null));

  federation
    .setFollowersDispatcher(FEDERATION_PATHS.followers, async (_ctx, identifier, cursor) => {
      const page = await service.followers(identifier, cursor);
      if (!page) return null;
      const items: Recipient[] = page.items.map((f) => ({
        id: new URL(f.actor_id),
        inboxId: new URL(f.inbox),
        endpoints: f.shared_inbox ? { sharedInbox: new URL(f.shared_inbox) } : null,
      }));
      return { items, nextCursor: page.nextCursor };
    })
    .setCounter((_ctx, identifier) => service.followerCount(identifier))
    .setFirstCursor(async (_ctx, identifier) => ((await service.channel(identifier)) ? '0' : null));

  listenToInbox(federation, service, deps.logger, { inbox: FEDERATION_PATHS.inbox, sharedInbox: FEDERATION_PATHS.sharedInbox }, deps.inbound);

  federation.setNodeInfoDispatcher(FEDERATION_PATHS.nodeInfo, async () => {
    const usage = await service.usage();
    return {
      software: { name: 'reelhouse', version: parseSemVer(deps.version) },
      protocols: ['activitypub'],
      usage: {
        users: { total: usage.users, activeMonth: usage.activeMonth, activeHalfyear: usage.activeHalfyear },
        localPosts: usage.videos,
        localComments: usage.comments,
      },
    };
  });
  return federation;
}

interface ActorAddresses {
  summary: string;
  id: URL;
  inbox: URL;
  sharedInbox: URL;
  outbox: URL;
  followers: URL;
  page: URL;
  avatar: URL | null;
  banner: URL | null;
  keys: ActorKeyPair[];
}

/** A channel as a `Group`: its name, page, avatar and banner, where to reach it, and its key. */
function channelActor(channel: ChannelRow, at: ActorAddresses): Group {
  return new Group({
    id: at.id,
    preferredUsername: channel.username,
    name: channel.full_name,
    summary: textToHtml(at.summary),
    url: at.page,
    icon: at.avatar ? new Image({ url: at.avatar, mediaType: imageType(at.avatar) }) : null,
    image: at.banner ? new Image({ url: at.banner, mediaType: imageType(at.banner) }) : null,
    inbox: at.inbox,
    outbox: at.outbox,
    followers: at.followers,
    endpoints: new Endpoints({ sharedInbox: at.sharedInbox }),
    publicKey: at.keys[0]?.cryptographicKey ?? null,
    assertionMethods: at.keys.map((k) => k.multikey),
    manuallyApprovesFollowers: false,
    discoverable: true,
    published: Temporal.Instant.fromEpochMilliseconds(Number(channel.created_at)),
  });
}
