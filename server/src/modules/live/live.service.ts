import { createHash, randomBytes } from 'node:crypto';
import {
  type CreatedLive,
  CreateLiveBody,
  type LiveDetail,
  type LiveIngest,
  type LivePage,
  type UpdateLiveBody,
  pageInfo,
  type VideoDetail,
} from '@reelhouse/contract';
import { conflict, forbidden, notFound, unauthorized, validationFailed } from '../../http/errors.js';
import { newId } from '../../lib/ids.js';
import type { PublicChanges } from '../../lib/public-changes.js';
import { plainThumbnail } from '../../media/image.js';
import { type Storage, videoPrefix } from '../../storage/storage.js';
import { isAdmin, type Viewer } from '../../db/video-access.js';
import type { SecretBox } from '../users/totp.js';
import type { UsersRepository } from '../users/users.repository.js';
import { liveState, type VideoPresenter } from '../videos/videos.presenter.js';
import type { VideosService } from '../videos/videos.service.js';
import { presentHealth } from './live-health.js';
import type { LiveRepository, LiveRow } from './live.repository.js';
import type { LiveReplay } from './live-replay.js';
import type { LiveEvents } from './live-events.js';
import type { LiveLimits } from './live-limits.js';

/** What a running ingest is told by the rules here: cut an encoder off (its key changed), or end the live's broadcast. */
export interface LiveIngestControl {
  disconnect(videoId: string): Promise<void>;
  /** Cuts the encoder off and stops the broadcast, storing what it made. */
  end(videoId: string): Promise<void>;
}

export interface LiveServiceDeps {
  lives: LiveRepository;
  users: Pick<UsersRepository, 'findById'>;
  videos: Pick<VideosService, 'get' | 'update'>;
  present: VideoPresenter;
  /** Seals stream keys so that their owner can read them again. */
  box: SecretBox;
  storage: Storage;
  changes: PublicChanges;
  /**
   * Where encoders publish: `url` when the operator set one (an ingest on its own machine), else the
   * site's public host (or the request's) at `port`.
   */
  rtmp: { port: number; publicUrl: string | null; url: string | null };
  /** Who may go live, how many lives may be on air, and for how long. */
  limits: LiveLimits;
  /** What an ended live becomes: its replay, or nothing. */
  replay: Pick<LiveReplay, 'afterEnd'>;
  /** The ingest of this process, once it runs; none means nothing can be publishing here. */
  ingest?: LiveIngestControl;
  /** Told when a live ends here, so its open chats hear of it. */
  events: Pick<LiveEvents, 'status'>;
  /** The chat's slow mode of a live that has not set its own (LIVE_CHAT_SLOW_MODE_SECONDS). */
  chatSlowModeSeconds: number;
  /** Whether this process relays a browser's stream to an ingest: its own, or the one at LIVE_RTMP_URL. */
  browserPublishing: boolean;
  now?: () => number;
}

/** The stored form of a stream key: how a connecting encoder is looked up. */
export function hashStreamKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/** 32 URL-safe characters: typed into an encoder once, never guessed. */
function newStreamKey(): string {
  return randomBytes(24).toString('base64url');
}

/**
 * Lives: a video with a live state. Making one, its owner's view (key, ingest address, health),
 * changing its text and visibility (through the videos service, the one place those rules live),
 * a new key, ending it, and the list of what is on air.
 */
export class LiveService {
  private readonly now: () => number;

  constructor(private readonly deps: LiveServiceDeps) {
    this.now = deps.now ?? Date.now;
  }

  async create(user: Viewer, body: CreateLiveBody, requestHost: string): Promise<CreatedLive> {
    // Who may go live is asked here; how many lives may be on air, when one goes on air (a live made
    // now may be for next week, while another is on air).
    const refusal = await this.deps.limits.whoMay(user.id);
    if (refusal) throw refusal;
    const now = this.now();
    let scheduledStart: number | null = null;
    if (body.scheduledStart !== undefined) {
      scheduledStart = Date.parse(body.scheduledStart);
      if (scheduledStart <= now) throw validationFailed([{ path: 'scheduledStart', message: 'scheduledStart must be in the future' }]);
    }
    const owner = await this.deps.users.findById(user.id);
    if (!owner) throw unauthorized();
    const id = newId();
    const thumbnailKey = `${videoPrefix(id)}thumbnail-${newId()}.webp`;
    await this.deps.storage.put(thumbnailKey, await plainThumbnail(), 'image/webp');
    const streamKey = newStreamKey();
    try {
      await this.deps.lives.create(
        {
          id,
          owner_id: user.id,
          title: body.title,
          description: body.description,
          owner_text: `${owner.username} ${owner.full_name}`,
          duration: 0,
          views: 0,
          // Ready: a live is watchable (by its visibility) from the start; its page tells whether it is on air.
          status: 'ready',
          progress: 100,
          failure_reason: null,
          visibility: body.visibility ?? 'public',
          publish_at: null,
          hidden_at: null,
          hidden_reason: null,
          appeal_text: null,
          appealed_at: null,
          listed: 0,
          watchable: 0,
          width: null,
          height: null,
          source_key: null,
          video_key: null,
          hls_key: null,
          storyboard_key: null,
          thumbnail_key: thumbnailKey,
          source_bytes: 0,
          likes_count: 0,
          comments_count: 0,
          remote_object_id: null,
          remote_url: null,
          created_at: now,
          updated_at: now,
        },
        {
          video_id: id,
          user_id: user.id,
          stream_key_hash: hashStreamKey(streamKey),
          stream_key_sealed: this.deps.box.seal(streamKey),
          permanent: body.permanent ? 1 : 0,
          save_replay: body.saveReplay === false ? 0 : 1,
          scheduled_start: scheduledStart,
          status: 'upcoming',
          started_at: null,
          ended_at: null,
          last_data_at: null,
          health: null,
          ingest_owner: null,
          created_at: now,
          chat_slow_mode_seconds: null,
        },
      );
    } catch (err) {
      await this.deps.storage.deletePrefix(videoPrefix(id)).catch(() => undefined);
      throw err;
    }
    await this.deps.changes.changed();
    return { video: await this.deps.videos.get(id, user), streamKey, ingest: this.ingest(requestHost) };
  }

  async detail(videoId: string, user: Viewer, requestHost: string): Promise<LiveDetail> {
    const live = await this.ownLive(videoId, user, { adminsToo: true });
    return {
      videoId,
      ...liveState(liveColumns(live)),
      permanent: live.permanent === 1,
      saveReplay: live.save_replay === 1,
      streamKey: this.deps.box.open(live.stream_key_sealed),
      ingest: this.ingest(requestHost),
      health: presentHealth(live),
      chat: { slowModeSeconds: live.chat_slow_mode_seconds ?? this.deps.chatSlowModeSeconds, open: live.status !== 'ended' },
    };
  }

  /**
   * Title, description and visibility, by the same rules as any video of the owner's; the chat's
   * slow mode is the live's own. The video's fields go first: refused, they leave the slow mode as it was.
   */
  async update(videoId: string, user: Viewer, body: UpdateLiveBody): Promise<VideoDetail> {
    await this.ownLive(videoId, user, { adminsToo: false });
    const { slowModeSeconds, ...videoFields } = body;
    const fields = Object.fromEntries(Object.entries(videoFields).filter(([, v]) => v !== undefined)) as Record<string, string>;
    const updated = Object.keys(fields).length > 0 ? await this.deps.videos.update(videoId, user, fields, undefined) : null;
    if (slowModeSeconds !== undefined) await this.deps.lives.setChatSlowMode(videoId, slowModeSeconds);
    return updated ?? this.deps.videos.get(videoId, user);
  }

  /** A new key; the old one stops at once, and an encoder still publishing with it is cut off. */
  async newKey(videoId: string, user: Viewer): Promise<{ streamKey: string }> {
    await this.ownLive(videoId, user, { adminsToo: true });
    const streamKey = newStreamKey();
    await this.deps.lives.setKey(videoId, hashStreamKey(streamKey), this.deps.box.seal(streamKey));
    await this.deps.ingest?.disconnect(videoId);
    return { streamKey };
  }

  /**
   * Ends the live now: an encoder still publishing is cut off, and the recording becomes the replay
   * (or, without saveReplay, the video is removed: the answer is then the video as it ended).
   * Ending an ended live changes nothing.
   */
  async end(videoId: string, user: Viewer): Promise<VideoDetail> {
    await this.ownLive(videoId, user, { adminsToo: true });
    if (await this.deps.lives.end(videoId, this.now())) {
      await this.deps.ingest?.end(videoId);
      await this.deps.changes.changed();
      await this.deps.events.status(videoId, 'ended');
      const asEnded = await this.deps.videos.get(videoId, user);
      if ((await this.deps.replay.afterEnd(videoId)).removed) return asEnded;
    }
    return this.deps.videos.get(videoId, user);
  }

  async listOnAir(pageNumber: number, pageSize: number): Promise<LivePage> {
    const { rows, total } = await this.deps.lives.listOnAir((pageNumber - 1) * pageSize, pageSize);
    return {
      ...pageInfo(total, pageNumber, pageSize),
      videos: rows.map((r) => ({ ...this.deps.present.summary(r), live: liveState(r) })),
    };
  }

  /** LIVE_RTMP_URL, or `rtmp://HOST:PORT/live`: the public address's host, or the one the request came to. */
  private ingest(requestHost: string): LiveIngest {
    if (this.deps.rtmp.url) return { rtmp: this.deps.rtmp.url, browser: this.deps.browserPublishing };
    const host = this.deps.rtmp.publicUrl ? new URL(this.deps.rtmp.publicUrl).hostname : requestHost;
    const bracketed = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
    return { rtmp: `rtmp://${bracketed}:${this.deps.rtmp.port}/live`, browser: this.deps.browserPublishing };
  }

  /**
   * The stream key a browser publishing to this live sends its stream with, through this site's own
   * RTMP ingest (so every rule of an encoder applies to it). Its owner only; an ended live, or a site
   * without the ingest, takes nothing.
   */
  async browserPublishKey(videoId: string, user: Viewer): Promise<string> {
    const live = await this.ownLive(videoId, user, { adminsToo: false });
    if (live.status === 'ended') throw conflict('This live has ended');
    if (!this.deps.browserPublishing) throw conflict('Live ingest is off on this site');
    // The ingest would refuse it too; here the page is told why.
    const refusal = await this.deps.limits.mayPublish(live);
    if (refusal) throw refusal;
    return this.deps.box.open(live.stream_key_sealed);
  }

  /**
   * Ends the lives this process has on air that reached the longest a live may last, as their owner
   * would end them (the encoder cut off, the recording made the replay). Answers the lives ended.
   */
  async endOverlong(ingestOwner: string): Promise<string[]> {
    const { maxLiveMinutes } = await this.deps.limits.settings();
    const ids = await this.deps.lives.onAirSince(ingestOwner, this.now() - maxLiveMinutes * 60_000);
    const ended: string[] = [];
    for (const videoId of ids) {
      if (!(await this.deps.lives.end(videoId, this.now()))) continue;
      ended.push(videoId);
      await this.deps.ingest?.end(videoId);
      await this.deps.changes.changed();
      await this.deps.replay.afterEnd(videoId);
    }
    return ended;
  }

  /** The live, if this user may manage it: its owner (or an admin, where allowed). Missing to those who may not see it. */
  private async ownLive(videoId: string, user: Viewer, opts: { adminsToo: boolean }): Promise<LiveRow> {
    const live = await this.deps.lives.find(videoId);
    if (!live) throw notFound('Live');
    if (live.user_id === user.id || (opts.adminsToo && isAdmin(user))) return live;
    // Someone else's live they cannot even watch stays missing to them (the videos service's 404), as everywhere else.
    await this.deps.videos.get(videoId, user);
    throw forbidden('Only the owner of this live can manage it');
  }
}

function liveColumns(live: LiveRow) {
  return {
    live_status: live.status,
    live_scheduled_start: live.scheduled_start,
    live_started_at: live.started_at,
    live_ended_at: live.ended_at,
    live_viewers: live.viewers,
  };
}
