import type { VideoPlayerProps } from './types';

export type { VideoPlayerProps } from './types';

export function VideoPlayer({ title, src, hlsSrc, poster }: VideoPlayerProps) {
  return (
    <video
      className="aspect-video w-full bg-black"
      src={hlsSrc ?? src}
      poster={poster}
      controls
      aria-label={title}
    />
  );
}

export default VideoPlayer;
