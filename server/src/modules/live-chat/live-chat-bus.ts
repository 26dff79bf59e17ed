import type { ChatMessage, LiveStatusEvent } from '@reelhouse/contract';
import type { Logger } from 'pino';
import { createTopicBus, type TopicBus } from '../../lib/topic-bus.js';

/** What happens in a live's chat that every open stream of it hears. */
export type ChatEvent = { type: 'message'; message: ChatMessage } | { type: 'deleted'; _id: string } | { type: 'status'; status: LiveStatusEvent['status'] };

/**
 * Carries a live's chat events to its open streams on every API process (the topic is the live's
 * id): whichever process stores a message (or ends the live) publishes; each process delivers to
 * the streams it holds.
 */
export type LiveChatBus = TopicBus<ChatEvent>;

export function createLiveChatBus(redisUrl: string | null, logger: Logger): LiveChatBus {
  return createTopicBus<ChatEvent>(redisUrl, 'reelhouse:live-chat', 'live chat', logger);
}
