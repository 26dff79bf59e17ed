import type { Db } from '../../db/client.js';
import { UsersRepository } from '../users/users.repository.js';

class ChannelVanished extends Error {}

export class SubscriptionsRepository {
  constructor(private readonly db: Db) {}

  findChannel(id: string) {
    return this.db.selectFrom('users').select(['id', 'subscribers_count']).where('id', '=', id).executeTakeFirst();
  }

  async isSubscribed(subscriberId: string, channelId: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('subscriptions')
      .select('channel_id')
      .where('subscriber_id', '=', subscriberId)
      .where('channel_id', '=', channelId)
      .executeTakeFirst();
    return Boolean(row);
  }

  /**
   * Flips a subscription and moves the channel's subscriber counter by what actually changed, in
   * one transaction; the primary key rules out a second subscription. Returns whether the user is
   * now subscribed, or null when the channel no longer exists.
   */
  async toggle(subscriberId: string, channelId: string, now: number): Promise<boolean | null> {
    try {
      return await this.db.transaction().execute(async (trx) => {
        const removed = await trx.deleteFrom('subscriptions').where('subscriber_id', '=', subscriberId).where('channel_id', '=', channelId).executeTakeFirst();
        let delta = -Number(removed.numDeletedRows);
        let subscribed = false;
        if (delta === 0) {
          // A channel deleted since the caller looked is a 404, not a foreign-key failure.
          const exists = await trx.selectFrom('users').select('id').where('id', '=', channelId).where('banned_at', 'is', null).executeTakeFirst();
          if (!exists) throw new ChannelVanished();
          const added = await trx
            .insertInto('subscriptions')
            .values({ subscriber_id: subscriberId, channel_id: channelId, created_at: now })
            .onConflict((oc) => oc.columns(['subscriber_id', 'channel_id']).doNothing())
            .executeTakeFirst();
          delta = Number(added.numInsertedOrUpdatedRows ?? 0);
          subscribed = true;
        }
        if (delta !== 0) {
          await new UsersRepository(trx).addSubscribers(channelId, delta);
        }
        return subscribed;
      });
    } catch (err) {
      if (err instanceof ChannelVanished) return null;
      throw err;
    }
  }
}
