import type { ChatBan, ChatBanBody, ChatHistory, ChatMessage, ChatMessageBody, ChatSettings } from '@reelhouse/contract';
import { CHAT_HISTORY_SIZE } from '@reelhouse/contract';
import { AppError, conflict, forbidden, notFound } from '../../http/errors.js';
import type { DefaultImages } from '../../lib/default-images.js';
import { newId, toIso } from '../../lib/ids.js';
import type { Storage } from '../../storage/storage.js';
import { canWatch, type Viewer } from '../../db/video-access.js';
import type { ChatEvent, LiveChatBus } from './live-chat-bus.js';
import type { ChatMessageViewRow, ChatVideoRow, LiveChatRepository } from './live-chat.repository.js';
import type { LiveViewers } from './live-viewers.js';

export interface LiveChatServiceDeps {
  chat: LiveChatRepository;
  bus: LiveChatBus;
  viewers: Pick<LiveViewers, 'join'>;
  storage: Pick<Storage, 'url'>;
  defaultImages: DefaultImages;
  /** The slow mode of a live that has not set its own (LIVE_CHAT_SLOW_MODE_SECONDS). */
  defaultSlowModeSeconds: number;
  now?: () => number;
}

type ChatLive = ChatVideoRow & { live_status: NonNullable<ChatVideoRow['live_status']> };

const isStaff = (user: Viewer) => user.role === 'moderator' || user.role === 'admin';

/**
 * The chat of a live. Whoever may see the live reads it and counts as a viewer while a stream is
 * open; signed-in viewers write while it is upcoming or on air. The channel owner, moderators and
 * admins keep it in order (deleting messages, banning viewers for a while) and never wait for slow
 * mode. Every change goes to the open streams of every process through the bus.
 */
export class LiveChatService {
  private readonly now: () => number;

  constructor(private readonly deps: LiveChatServiceDeps) {
    this.now = deps.now ?? Date.now;
  }

  async history(videoId: string, viewer: Viewer | null): Promise<ChatHistory> {
    const live = await this.visibleLive(videoId, viewer);
    const rows = await this.deps.chat.recent(videoId, CHAT_HISTORY_SIZE);
    return { messages: rows.map((r) => this.present(r)), settings: this.settings(live) };
  }

  /** The chat's rules, for one who may see the live (a stream about to open); missing to anyone else. */
  async settingsFor(videoId: string, viewer: Viewer | null): Promise<ChatSettings> {
    return this.settings(await this.visibleLive(videoId, viewer));
  }

  async post(videoId: string, user: Viewer, body: ChatMessageBody): Promise<ChatMessage> {
    const live = await this.visibleLive(videoId, user);
    if (live.live_status === 'ended') throw conflict('The live has ended; its chat is read-only');
    const now = this.now();
    const bannedUntil = await this.deps.chat.banUntil(videoId, user.id);
    if (bannedUntil !== null && bannedUntil > now) throw forbidden(`You are banned from this chat until ${toIso(bannedUntil)}`);
    const slow = this.slowModeSeconds(live);
    if (slow > 0 && !this.keepsOrder(live, user)) {
      const last = await this.deps.chat.lastMessageAt(videoId, user.id);
      const waitMs = last === null ? 0 : last + slow * 1000 - now;
      if (waitMs > 0) {
        const wait = Math.ceil(waitMs / 1000);
        throw new AppError(429, 'SLOW_MODE', `Slow mode: wait ${slow} second${slow === 1 ? '' : 's'} between messages (${wait} s left)`, null, {
          'retry-after': String(wait),
        });
      }
    }
    const id = newId();
    await this.deps.chat.insertMessage({ id, video_id: videoId, user_id: user.id, content: body.content, created_at: now });
    const row = await this.deps.chat.findMessage(videoId, id);
    if (!row) throw notFound('Message');
    const message = this.present(row);
    await this.deps.bus.publish(videoId, { type: 'message', message });
    return message;
  }

  /** The author, the channel owner, a moderator or an admin; also once the live has ended. */
  async delete(videoId: string, messageId: string, user: Viewer): Promise<void> {
    const live = await this.visibleLive(videoId, user);
    const message = await this.deps.chat.findMessage(videoId, messageId);
    if (!message) throw notFound('Message');
    if (message.user_id !== user.id && !this.keepsOrder(live, user)) {
      throw forbidden('Only its author, the channel owner or a moderator can delete this message');
    }
    await this.deps.chat.deleteMessage(messageId);
    await this.deps.bus.publish(videoId, { type: 'deleted', _id: messageId });
  }

  /** Keeps a viewer out of this live's chat for a while; a new ban replaces the old one. */
  async ban(videoId: string, user: Viewer, body: ChatBanBody): Promise<ChatBan> {
    const live = await this.visibleLive(videoId, user);
    if (!this.keepsOrder(live, user)) throw forbidden('Only the channel owner or a moderator can ban from this chat');
    const target = await this.deps.chat.findUser(body.userId);
    if (!target) throw notFound('User');
    if (target.id === user.id) throw forbidden('You cannot ban yourself');
    if (target.id === live.owner_id) throw forbidden('The channel owner cannot be banned from their own chat');
    if (isStaff(target)) throw forbidden('Moderators and admins cannot be banned from a chat');
    const now = this.now();
    const until = now + body.seconds * 1000;
    await this.deps.chat.upsertBan({ video_id: videoId, user_id: target.id, until, banned_by: user.id, created_at: now });
    return { videoId, userId: target.id, until: toIso(until) };
  }

  /** Listens for one live's chat events once the bus delivers to this process. */
  async subscribe(videoId: string, listener: (event: ChatEvent) => void): Promise<() => void> {
    const unsubscribe = this.deps.bus.subscribe(videoId, listener);
    await this.deps.bus.ready();
    return unsubscribe;
  }

  /** A viewer joins the live's audience; its own channel watching is told the count but not in it. */
  async join(videoId: string, viewer: Viewer | null, tell: (viewers: number) => void): ReturnType<LiveViewers['join']> {
    const live = await this.visibleLive(videoId, viewer);
    return this.deps.viewers.join(videoId, tell, viewer?.id !== live.owner_id);
  }

  /** The live's state changed: its open chats hear of it. */
  async statusChanged(videoId: string, status: 'upcoming' | 'live' | 'ended'): Promise<void> {
    await this.deps.bus.publish(videoId, { type: 'status', status });
  }

  /** The live, if this viewer may see the video (the one access rule); its chat is missing otherwise. */
  private async visibleLive(videoId: string, viewer: Viewer | null): Promise<ChatLive> {
    const video = await this.deps.chat.findVideo(videoId);
    if (!video || !canWatch(video, viewer)) throw notFound('Video');
    if (video.live_status === null) throw new AppError(404, 'NOT_FOUND', 'This video has no live chat');
    return video as ChatLive;
  }

  /** The channel owner, moderators and admins: they moderate the chat and never wait for slow mode. */
  private keepsOrder(live: ChatVideoRow, user: Viewer): boolean {
    return live.owner_id === user.id || isStaff(user);
  }

  private slowModeSeconds(live: ChatVideoRow): number {
    return live.chat_slow_mode_seconds ?? this.deps.defaultSlowModeSeconds;
  }

  private settings(live: ChatLive): ChatSettings {
    return { slowModeSeconds: this.slowModeSeconds(live), open: live.live_status !== 'ended' };
  }

  private present(r: ChatMessageViewRow): ChatMessage {
    return {
      _id: r.id,
      videoId: r.video_id,
      content: r.content,
      createdAt: toIso(Number(r.created_at)),
      author: {
        _id: r.user_id,
        username: r.username,
        fullName: r.full_name,
        avatar: { url: r.avatar_key ? this.deps.storage.url(r.avatar_key) : this.deps.defaultImages.avatar },
      },
    };
  }
}
