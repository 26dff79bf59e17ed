import {
  Accept,
  type Actor,
  Announce,
  Create,
  Delete,
  type Federation,
  Follow,
  type InboxContext,
  Like,
  Note,
  Reject,
  Undo,
  Update,
  Video,
} from '@fedify/fedify';
import type { FederationService } from './federation.service.js';
import type { ArrivingNote } from './remote-interactions.js';

/** The channel an actor address of this site names, or null for any other address. */
function channelOf(ctx: InboxContext<void>, uri: URL | null): string | null {
  const parsed = uri ? ctx.parseUri(uri) : null;
  return parsed?.type === 'actor' ? parsed.identifier : null;
}

/**
 * What becomes of what other servers send beyond follows: the videos of remote channels someone
 * here follows (remote-channels.ts), and comments and likes on this site's videos
 * (remote-interactions.ts).
 */
export interface Inbound {
  videoArrived(actorId: string, video: Video): Promise<boolean>;
  videoGone(actorId: string, objectId: string): Promise<boolean>;
  noteArrived(arriving: ArrivingNote): Promise<boolean>;
  noteEdited(actorId: string, note: Note): Promise<boolean>;
  noteGone(actorId: string, objectId: string): Promise<boolean>;
  likeArrived(arriving: { actorId: string; objectId: string; author: () => Promise<Actor | null> }, liked: boolean): Promise<boolean>;
  shareArrived(actorId: string, objectId: string, shared: boolean): Promise<boolean>;
}

/**
 * What the site does with activities that arrive, once the library has verified their signature
 * (one that does not verify is answered 401 before any of this runs): a Follow of a channel is
 * recorded and accepted, an Undo of it removes the follower, and an Accept or Reject of a follow a
 * channel sent settles it; a Create or Update of a Video by a channel someone here follows keeps
 * it here, and a Delete of one removes it; a Note in reply to a video of this site becomes a
 * comment (an Update edits it, a Delete removes it), and a Like or an Announce of one counts (its
 * Undo uncounts).
 */
export function listenToInbox(
  federation: Federation<void>,
  service: FederationService,
  logger: { warn(obj: object, msg?: string): void },
  paths: { inbox: `${string}{identifier}${string}`; sharedInbox: string },
  inbound: () => Inbound | null,
): void {
  // Embedded, as PeerTube, Mastodon and this site send them; one only named is fetched from its origin.
  const objectOf = (ctx: InboxContext<void>, activity: Create | Update) => activity.getObject(ctx).catch(() => null);
  federation
    .setInboxListeners(paths.inbox, paths.sharedInbox)
    .on(Follow, async (ctx, follow) => {
      const channelId = channelOf(ctx, follow.objectId);
      if (!channelId || !follow.id || !follow.actorId) return;
      const follower = await follow.getActor(ctx);
      if (!follower?.id || follower.id.href !== follow.actorId.href || !follower.inboxId) return;
      const kept = await service.addFollower(channelId, {
        actorId: follower.id.href,
        inbox: follower.inboxId.href,
        sharedInbox: follower.endpoints?.sharedInbox?.href ?? null,
        followId: follow.id.href,
      });
      if (!kept) return;
      const actor = ctx.getActorUri(channelId);
      // Through the library's queue, signed with the channel's key, retried if the follower's server is away.
      await ctx.sendActivity({ identifier: channelId }, follower, new Accept({ id: new URL(`#accept-${crypto.randomUUID()}`, actor), actor, object: follow }));
    })
    .on(Undo, async (ctx, undo) => {
      if (!undo.actorId) return;
      // Mastodon and PeerTube embed the Follow; others name it by an id that may not be fetchable.
      // Read before getObject, which puts the fetched document's id in its place.
      const named = undo.objectId?.href ?? null;
      const object = await undo.getObject(ctx).catch(() => null);
      if (object instanceof Announce) {
        if (object.actorId?.href === undo.actorId.href && object.objectId) await inbound()?.shareArrived(undo.actorId.href, object.objectId.href, false);
        return;
      }
      if (object instanceof Like) {
        if (object.actorId?.href === undo.actorId.href && object.objectId) {
          await inbound()?.likeArrived({ actorId: undo.actorId.href, objectId: object.objectId.href, author: () => undo.getActor(ctx) }, false);
        }
        return;
      }
      const follow = object instanceof Follow ? object : null;
      if (follow && follow.actorId?.href !== undo.actorId.href) return;
      await service.followerLeft({
        channelId: follow ? channelOf(ctx, follow.objectId) : null,
        actorId: undo.actorId.href,
        followId: follow?.id?.href ?? named,
      });
    })
    .on(Create, async (ctx, create) => {
      const to = inbound();
      if (!create.actorId || !to) return;
      const object = await objectOf(ctx, create);
      const actorId = create.actorId.href;
      if (object instanceof Video) await to.videoArrived(actorId, object);
      else if (object instanceof Note) await to.noteArrived({ actorId, note: object, author: () => create.getActor(ctx) });
    })
    .on(Update, async (ctx, update) => {
      const to = inbound();
      if (!update.actorId || !to) return;
      const object = await objectOf(ctx, update);
      if (object instanceof Video) await to.videoArrived(update.actorId.href, object);
      else if (object instanceof Note) await to.noteEdited(update.actorId.href, object);
    })
    .on(Delete, async (_ctx, del) => {
      const to = inbound();
      if (!del.actorId || !del.objectId || !to) return;
      if (!(await to.videoGone(del.actorId.href, del.objectId.href))) await to.noteGone(del.actorId.href, del.objectId.href);
    })
    .on(Announce, async (_ctx, announce) => {
      if (announce.actorId && announce.objectId) await inbound()?.shareArrived(announce.actorId.href, announce.objectId.href, true);
    })
    .on(Like, async (ctx, like) => {
      if (like.actorId && like.objectId) {
        await inbound()?.likeArrived({ actorId: like.actorId.href, objectId: like.objectId.href, author: () => like.getActor(ctx) }, true);
      }
    })
    .on(Accept, async (ctx, accept) => {
      if (!accept.actorId) return;
      // Our Follow ids are fragments of the channel's address: fetched, they answer the channel.
      const named = accept.objectId?.href ?? null;
      const object = await accept.getObject(ctx).catch(() => null);
      const follow = object instanceof Follow ? object : null;
      await service.followAccepted({
        followId: follow?.id?.href ?? named,
        channelId: follow ? channelOf(ctx, follow.actorId) : ctx.recipient,
        remoteActorId: accept.actorId.href,
      });
    })
    .on(Reject, async (ctx, reject) => {
      if (!reject.actorId) return;
      const follow = await reject.getObject(ctx).catch(() => null);
      const channelId = follow instanceof Follow ? channelOf(ctx, follow.actorId) : ctx.recipient;
      if (channelId) await service.followingUndone(channelId, reject.actorId.href);
    })
    .onError((_ctx, err) => logger.warn({ err }, 'federation could not handle an activity it received'));
}
