import type { NotificationEvent } from '@reelhouse/contract';
import type { Logger } from 'pino';
import { createTopicBus, type TopicBus } from '../../lib/topic-bus.js';

/**
 * Carries a new notification to the open streams of its recipient (the topic is the user's id).
 * Whichever process creates it (an API process answering a comment, a worker finishing an upload)
 * publishes; every API process delivers to the streams it holds.
 */
export type NoticeBus = TopicBus<NotificationEvent>;

export function createNoticeBus(redisUrl: string | null, logger: Logger): NoticeBus {
  return createTopicBus<NotificationEvent>(redisUrl, 'reelhouse:notifications', 'notification', logger);
}
