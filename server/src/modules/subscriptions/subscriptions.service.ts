import { forbidden, notFound } from '../../http/errors.js';
import type { SubscriptionsRepository } from './subscriptions.repository.js';
import type { PublicChanges } from '../../lib/public-changes.js';

export const SELF_SUBSCRIBE_MESSAGE = "Can't subscribe to your own channel";

/** Subscribing to a channel of another server: a Follow (or its Undo) from the subscriber's own channel goes there. */
export interface RemoteFollowing {
  subscribed(subscriberId: string, channelId: string): Promise<void>;
  unsubscribed(subscriberId: string, channelId: string): Promise<void>;
}

/** Subscriptions between users (a channel is a user, or stands for a channel of another server). */
export class SubscriptionsService {
  constructor(private readonly deps: { subscriptions: SubscriptionsRepository; changes: PublicChanges; remote?: RemoteFollowing; now?: () => number }) {}

  async toggle(subscriberId: string, channelId: string): Promise<boolean> {
    if (subscriberId === channelId) throw forbidden(SELF_SUBSCRIBE_MESSAGE);
    if (!(await this.deps.subscriptions.findChannel(channelId))) throw notFound('Channel');
    const now = (this.deps.now ?? Date.now)();
    const subscribed = await this.deps.subscriptions.toggle(subscriberId, channelId, now);
    if (subscribed === null) throw notFound('Channel');
    const remote = this.deps.remote;
    if (remote) {
      try {
        await (subscribed ? remote.subscribed(subscriberId, channelId) : remote.unsubscribed(subscriberId, channelId));
      } catch (err) {
        // The other server was not told (blocked since, or the queue refused): the subscription stays as it was.
        await this.deps.subscriptions.toggle(subscriberId, channelId, now);
        throw err;
      }
    }
    // Subscriber counts are on channel and video pages.
    await this.deps.changes.changed();
    return subscribed;
  }

  async isSubscribed(viewerId: string | null, channelId: string): Promise<boolean> {
    if (!(await this.deps.subscriptions.findChannel(channelId))) throw notFound('Channel');
    return viewerId && viewerId !== channelId ? this.deps.subscriptions.isSubscribed(viewerId, channelId) : false;
  }

  async subscriberCount(userId: string): Promise<{ count: number }> {
    const row = await this.deps.subscriptions.findChannel(userId);
    if (!row) throw notFound('User');
    return { count: Number(row.subscribers_count) };
  }
}
