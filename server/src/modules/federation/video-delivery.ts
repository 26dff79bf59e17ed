import { type Activity, type Context, type Federation, Video } from '@fedify/fedify';
import type { JobQueue } from '../../jobs/job-types.js';
import type { VideoEvents } from '../videos/video-events.js';
import type { FederationService } from './federation.service.js';
import type { SentVideosRepository } from './sent-videos.repository.js';
import { type SiteAddresses, videoAddresses, videoCreated, videoDeleted, videoObject, videoUpdated } from './video-object.js';

/** What a delivery did: told the followers of a new video, of an edit, of its removal, or nothing was due. */
export type VideoDeliveryOutcome = 'created' | 'updated' | 'deleted' | 'nothing';

/**
 * Whatever happens to a video (published, edited, made private, taken down, deleted), one typed
 * job asks this to compare what other servers were told with what they may see now and send the
 * difference to the channel's followers: a Create for a video they have never been told of, an
 * Update for an edit, a Delete for one they must forget. So every path that changes a video needs
 * only to say that it did, a job run twice sends nothing twice, and a job whose video has vanished
 * still sends its Delete.
 *
 * One message per remote server (its shared inbox where it has one) goes to the library's queue,
 * which signs, sends and retries each on its own; the followers are read here, in the job, and
 * never while a request waits.
 */
export class VideoDelivery {
  private readonly now: () => number;

  constructor(
    private readonly deps: {
      federation: Federation<void>;
      service: FederationService;
      sent: SentVideosRepository;
      site: SiteAddresses;
      now?: () => number;
    },
  ) {
    this.now = deps.now ?? Date.now;
  }

  async deliver(videoId: string): Promise<VideoDeliveryOutcome> {
    const { federation, service, sent, site } = this.deps;
    const [row, told] = await Promise.all([service.publicVideo(videoId), sent.find(videoId)]);
    const ctx = federation.createContext(new URL(site.origin));
    const now = this.now();
    if (row) {
      const updatedAt = Number(row.updated_at);
      if (told?.video_updated_at === updatedAt) return 'nothing';
      const at = videoAddresses(ctx, row, site);
      const video = videoObject(row, at);
      if (!video) return 'nothing';
      const mine = { video_id: row.id, channel_id: row.owner_id, video_updated_at: updatedAt };
      const claimed = told ? await sent.claimUpdate(row.id, told.video_updated_at, updatedAt, now) : await sent.claimCreate(mine, now);
      if (!claimed) return 'nothing';
      const activity = told ? videoUpdated(video, at) : videoCreated(video, at, now);
      await this.send(ctx, row.owner_id, activity, () => (told ? sent.restore(told, now) : sent.forget(row.id)));
      return told ? 'updated' : 'created';
    }
    if (!told || !(await sent.claimDelete(videoId))) return 'nothing';
    // A channel banned since has no key to sign with, and nobody may hear from it: its videos are
    // forgotten here; its followers stop seeing them as they fetch them again.
    if (await service.channel(told.channel_id)) {
      const at = { object: ctx.getObjectUri(Video, { id: videoId }), actor: ctx.getActorUri(told.channel_id), followers: ctx.getFollowersUri(told.channel_id) };
      await this.send(ctx, told.channel_id, videoDeleted(at, now), () => sent.restore(told, now));
    }
    return 'deleted';
  }

  /** Queues one message per follower's server; if that fails, the claim is given back so that the job's retry sends it. */
  private async send(ctx: Context<void>, channelId: string, activity: Activity, giveBack: () => Promise<void>): Promise<void> {
    try {
      await ctx.sendActivity({ identifier: channelId }, 'followers', activity, { preferSharedInbox: true, fanout: 'skip' });
    } catch (err) {
      await giveBack();
      throw err;
    }
  }
}

/** The video events federation hears: each asks for a delivery job, which works out what is due. */
export function videoEventsForFederation(queue: Pick<JobQueue, 'enqueue'>): Partial<VideoEvents> {
  const due = (videoId: string) => queue.enqueue('federation.video', { videoId });
  return { videoReady: due, videoListed: due, videoChanged: due };
}
