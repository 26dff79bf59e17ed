import type { Db } from '../../db/client.js';
import type { VideoProcessing } from '../videos/video-processing.js';
import { VideoMediaRepository } from './video-media.repository.js';

/**
 * Serves the uploaded source as it is. Used where no pipeline runs (some tests): the video is ready
 * as soon as its upload is stored.
 */
export class ServeSourceAsIs implements VideoProcessing {
  private readonly repo: VideoMediaRepository;

  constructor(db: Db) {
    this.repo = new VideoMediaRepository(db);
  }

  start(videoId: string): Promise<void> {
    return this.repo.serveSourceAsIs(videoId);
  }

  retry(videoId: string): Promise<void> {
    return this.start(videoId);
  }
}
