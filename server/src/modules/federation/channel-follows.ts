import { type Federation, Follow, isActor, Undo } from '@fedify/fedify';
import { notFound, unprocessable } from '../../http/errors.js';
import type { FederationService } from './federation.service.js';

/**
 * A channel of this site following a channel elsewhere (another Reelhouse, PeerTube, Mastodon):
 * the Follow is signed with the channel's key and delivered through the library's queue; the
 * remote server's Accept, arriving in the inbox, marks it accepted.
 */
export class ChannelFollows {
  constructor(
    private readonly federation: Federation<void>,
    private readonly service: FederationService,
    private readonly origin: string,
  ) {}

  /** remote: an actor's address, or a handle such as @channel@video.example.com. Answers the Follow's id. */
  async follow(channelId: string, remote: string): Promise<string> {
    if (!(await this.service.channel(channelId))) throw notFound('Channel');
    const ctx = this.federation.createContext(new URL(this.origin));
    const actor = await ctx.lookupObject(remote);
    if (!isActor(actor) || !actor.id || !actor.inboxId) throw unprocessable(`${remote} is not a channel or account another server knows`);
    return this.followActor(channelId, { id: actor.id.href, inbox: actor.inboxId.href });
  }

  /** Follows an actor whose inbox is known already (a remote channel kept here). Answers the Follow's id. */
  async followActor(channelId: string, actor: { id: string; inbox: string }): Promise<string> {
    if (!(await this.service.channel(channelId))) throw notFound('Channel');
    const ctx = this.federation.createContext(new URL(this.origin));
    const me = ctx.getActorUri(channelId);
    const followId = new URL(`#follow-${crypto.randomUUID()}`, me);
    await this.service.followSent(channelId, { actorId: actor.id, inbox: actor.inbox, followId: followId.href });
    await ctx.sendActivity(
      { identifier: channelId },
      { id: new URL(actor.id), inboxId: new URL(actor.inbox) },
      new Follow({ id: followId, actor: me, object: new URL(actor.id) }),
    );
    return followId.href;
  }

  /** Stops following: an Undo of the Follow goes to the remote channel, and the follow is forgotten here. */
  async unfollow(channelId: string, remoteActorId: string): Promise<void> {
    const sent = (await this.service.following(channelId)).find((f) => f.actor_id === remoteActorId);
    if (!sent) return;
    const ctx = this.federation.createContext(new URL(this.origin));
    const me = ctx.getActorUri(channelId);
    const follow = new Follow({ id: new URL(sent.follow_id), actor: me, object: new URL(remoteActorId) });
    await ctx.sendActivity(
      { identifier: channelId },
      { id: new URL(remoteActorId), inboxId: new URL(sent.inbox) },
      new Undo({ id: new URL(`#undo-${crypto.randomUUID()}`, me), actor: me, object: follow }),
    );
    await this.service.followingUndone(channelId, remoteActorId);
  }
}
