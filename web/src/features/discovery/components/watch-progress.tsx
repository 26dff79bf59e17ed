import { useKnownPosition } from '../lib/use-position-tracking';
import { watchedFraction } from '../lib/resume-rules';

/** The red bar at the bottom of a part-watched video's thumbnail; nothing for unwatched or finished ones. */
export function WatchProgress({ videoId, duration, watchPosition }: { videoId: string; duration: number; watchPosition?: number | null }) {
  // Cards carry watchPosition (a number or null) only in answers for a signed-in viewer.
  const position = useKnownPosition(videoId, watchPosition !== undefined, watchPosition);
  const fraction = watchedFraction(position, duration);
  if (fraction <= 0) return null;
  const percent = Math.max(2, Math.round(fraction * 100));
  return (
    <div className="absolute inset-x-0 bottom-0 h-1 bg-neutral-300/70" data-testid="watch-progress" data-percent={percent}>
      <div className="h-full bg-red-600" style={{ width: `${percent}%` }} />
    </div>
  );
}
