import { z } from 'zod';
import { Id, IsoDate, MediaRef } from './common.js';

export const MAX_CHAT_MESSAGE_LENGTH = 200;
/** How many messages GET /live/{videoId}/chat gives: the newest, oldest first. */
export const CHAT_HISTORY_SIZE = 100;
export const MAX_SLOW_MODE_SECONDS = 3600;
/** A ban lasts from a minute to a week. */
export const MIN_CHAT_BAN_SECONDS = 60;
export const MAX_CHAT_BAN_SECONDS = 7 * 24 * 3600;

/** POST /live/{videoId}/chat. Blank (after trimming) is refused, so a client should not send it. */
export const ChatMessageBody = z.object({
  content: z
    .string({ error: 'content is required' })
    .trim()
    .min(1, 'content must not be blank')
    .max(MAX_CHAT_MESSAGE_LENGTH, `content must be at most ${MAX_CHAT_MESSAGE_LENGTH} characters`),
});
export type ChatMessageBody = z.infer<typeof ChatMessageBody>;

export const ChatAuthor = z.object({ _id: Id, username: z.string(), fullName: z.string(), avatar: MediaRef });
export type ChatAuthor = z.infer<typeof ChatAuthor>;

export const ChatMessage = z.object({
  _id: Id,
  videoId: Id,
  content: z.string(),
  createdAt: IsoDate,
  author: ChatAuthor,
});
export type ChatMessage = z.infer<typeof ChatMessage>;

/** The chat's rules as a viewer needs them. */
export const ChatSettings = z.object({
  /** Seconds a viewer waits between two messages; 0 is off. The channel owner and moderators never wait. */
  slowModeSeconds: z.number().int().min(0),
  /** False once the live has ended: the chat is kept, read-only. */
  open: z.boolean(),
});
export type ChatSettings = z.infer<typeof ChatSettings>;

/** GET /live/{videoId}/chat: the last messages, oldest first, and the rules. */
export const ChatHistory = z.object({ messages: z.array(ChatMessage).max(CHAT_HISTORY_SIZE), settings: ChatSettings });
export type ChatHistory = z.infer<typeof ChatHistory>;

/** DELETE /live/{videoId}/chat/{messageId}. */
export const ChatMessageParams = z.object({ videoId: Id, messageId: Id });
export type ChatMessageParams = z.infer<typeof ChatMessageParams>;

/** POST /live/{videoId}/chat/bans: the owner or a moderator keeps a viewer out of the chat for a while. */
export const ChatBanBody = z.object({
  userId: Id,
  seconds: z
    .number({ error: 'seconds must be a number' })
    .int('seconds must be a whole number')
    .min(MIN_CHAT_BAN_SECONDS, `seconds must be at least ${MIN_CHAT_BAN_SECONDS}`)
    .max(MAX_CHAT_BAN_SECONDS, `seconds must be at most ${MAX_CHAT_BAN_SECONDS}`),
});
export type ChatBanBody = z.infer<typeof ChatBanBody>;

export const ChatBan = z.object({ videoId: Id, userId: Id, until: IsoDate });
export type ChatBan = z.infer<typeof ChatBan>;

/**
 * The events of GET /live/{videoId}/chat/stream (server-sent events; the open stream counts as one
 * viewer of the live):
 * - `ready`: ChatReady, once, first;
 * - `message`: a ChatMessage;
 * - `deleted`: ChatDeleted;
 * - `viewers`: ChatViewers, every few seconds while it changes;
 * - `status`: the live's state changed (on air, ended): LiveStatusEvent.
 */
export const ChatReady = z.object({ viewers: z.number().int().min(0), settings: ChatSettings });
export type ChatReady = z.infer<typeof ChatReady>;
export const ChatDeleted = z.object({ _id: Id });
export type ChatDeleted = z.infer<typeof ChatDeleted>;
export const ChatViewers = z.object({ viewers: z.number().int().min(0) });
export type ChatViewers = z.infer<typeof ChatViewers>;
export const LiveStatusEvent = z.object({ status: z.enum(['upcoming', 'live', 'ended']) });
export type LiveStatusEvent = z.infer<typeof LiveStatusEvent>;
