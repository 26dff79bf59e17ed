import type { Chapter } from '@reelhouse/contract';

export interface VideoPlayerProps {
  videoId: string;
  title: string;
  /** Progressive mp4 URL, playable as soon as the fast-start remux exists. */
  src: string;
  /**
   * HLS master playlist URL once the adaptive ladder exists. Preferred when present; if it appears
   * while the progressive file is already playing, the progressive file keeps playing.
   */
  hlsSrc: string | null;
  /** Thumbnail URL. */
  poster?: string;
  /** WebVTT index of seek-preview sprite sheets (`sprite-0.jpg#xywh=0,0,160,90` cues). */
  storyboard: string | null;
  /** Seconds. */
  duration: number;
  /** The description's chapters, shown on the seek bar; none when absent or empty. */
  chapters?: readonly Chapter[];
  /** Caption tracks (WebVTT), offered in the player's captions menu. */
  captions?: { url: string; language: string; label: string }[];
  theater: boolean;
  onTheaterChange(next: boolean): void;
  /**
   * Called once per mount (and once more per `videoId` change within a mount) when watched
   * playback time, the sum of intervals actually played, reaches 30 s or 95% of the duration.
   */
  onViewCounted(): void;
  /** Seconds to start from (a resumed position), applied once before playback starts; may arrive after mount. */
  startAt?: number | null;
  /** Starts playing on its own (the next video of autoplay). */
  autoPlay?: boolean;
  /** Every time update once playback has started: where playback is and the media's duration, in seconds. */
  onTimeChange?(currentTime: number, duration: number): void;
  onPause?(): void;
  /** Playback reached the end. */
  onEnded?(): void;
  /**
   * A live on air: `hlsSrc` is its live playlist, played a couple of seconds behind the newest
   * segment, with a seek bar over the broadcast's window and a LIVE button in place of the time.
   */
  live?: boolean;
  /** Starts without sound (the owner's preview of their own stream). */
  muted?: boolean;
}
