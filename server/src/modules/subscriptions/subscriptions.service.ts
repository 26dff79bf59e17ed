import { forbidden, notFound } from '../../http/errors.js';
import type { SubscriptionsRepository } from './subscriptions.repository.js';
import type { PublicChanges } from '../../lib/public-changes.js';

export const SELF_SUBSCRIBE_MESSAGE = "Can't subscribe to your own channel";

/** Subscriptions between users (a channel is a user). */
export class SubscriptionsService {
  constructor(private readonly deps: { subscriptions: SubscriptionsRepository; changes: PublicChanges; now?: () => number }) {}

  async toggle(subscriberId: string, channelId: string): Promise<boolean> {
    if (subscriberId === channelId) throw forbidden(SELF_SUBSCRIBE_MESSAGE);
    if (!(await this.deps.subscriptions.findChannel(channelId))) throw notFound('Channel');
    const subscribed = await this.deps.subscriptions.toggle(subscriberId, channelId, (this.deps.now ?? Date.now)());
    if (subscribed === null) throw notFound('Channel');
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
