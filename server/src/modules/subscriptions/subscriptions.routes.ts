import { envelope as envelopeSchema, FollowedChannelPage, Id, PageQuery, SubscriberCount, VideoPage } from '@reelhouse/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { cachedForItsViewer } from '../../http/answer-cache.js';
import { currentUser, requireUser } from '../../http/auth.js';
import { envelope } from '../../http/envelope.js';
import type { SubscriptionsFeedService } from './subscriptions-feed.service.js';
import type { SubscriptionsService } from './subscriptions.service.js';

const tags = ['subscriptions'];
const ChannelParams = z.object({ channelId: Id });
const FeedPageQuery = PageQuery.pick({ pageNumber: true, pageSize: true });

export const subscriptionsRoutes: FastifyPluginAsyncZod<{ subscriptions: SubscriptionsService; feed: SubscriptionsFeedService }> = async (
  app,
  { subscriptions, feed },
) => {
  app.post(
    '/subscriptions/channel/:channelId',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'Subscribe or unsubscribe; answers whether subscribed now',
        params: ChannelParams,
        response: { 200: envelopeSchema(z.boolean()) },
      },
    },
    async (request) => {
      const subscribed = await subscriptions.toggle(currentUser(request).id, request.params.channelId);
      return envelope(subscribed, subscribed ? 'Subscribed' : 'Unsubscribed');
    },
  );

  app.get(
    '/subscriptions/channel/:channelId',
    {
      schema: {
        tags,
        summary: 'Whether the caller is subscribed (false when signed out)',
        params: ChannelParams,
        response: { 200: envelopeSchema(z.boolean()) },
      },
    },
    async (request) => envelope(await subscriptions.isSubscribed(request.user?.id ?? null, request.params.channelId), 'Subscription status fetched'),
  );

  app.get(
    '/subscriptions/user/subscriber-count',
    {
      preHandler: requireUser,
      schema: { tags, summary: "The caller's own subscriber count", response: { 200: envelopeSchema(SubscriberCount) } },
    },
    async (request) => envelope(await subscriptions.subscriberCount(currentUser(request).id), 'Subscriber count fetched'),
  );

  app.get(
    '/subscriptions/user/channels',
    {
      preHandler: requireUser,
      config: cachedForItsViewer,
      schema: {
        tags,
        summary: 'The channels the caller follows, by username, with their avatars',
        querystring: FeedPageQuery,
        response: { 200: envelopeSchema(FollowedChannelPage) },
      },
    },
    async (request) => envelope(await feed.channels(currentUser(request), request.query), 'Subscribed channels fetched'),
  );

  app.get(
    '/feed/subscriptions',
    {
      preHandler: requireUser,
      config: cachedForItsViewer,
      schema: {
        tags,
        summary: 'The newest listed videos of the channels the caller follows',
        querystring: FeedPageQuery,
        response: { 200: envelopeSchema(VideoPage) },
      },
    },
    async (request) => envelope(await feed.videos(currentUser(request), request.query), 'Subscriptions feed fetched'),
  );
};
