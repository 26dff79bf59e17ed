import type { VideoDetail } from '@reelhouse/contract';
import type { VideoPlayerProps } from './types';

/** What the player plays and shows of a video, the same wherever it is played (the video page, an embed). */
export type PlayerMedia = Pick<VideoPlayerProps, 'videoId' | 'title' | 'src' | 'hlsSrc' | 'poster' | 'storyboard' | 'duration' | 'chapters' | 'captions'>;

export function playerMedia(video: VideoDetail): PlayerMedia {
  return {
    videoId: video._id,
    title: video.title,
    src: video.videoFile.url,
    hlsSrc: video.hls?.url ?? null,
    poster: video.thumbnail.url,
    storyboard: video.storyboard?.url ?? null,
    duration: video.duration,
    chapters: video.chapters,
    captions: video.captions,
  };
}
