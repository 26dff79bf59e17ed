import { useEffect, useRef } from 'react';

/**
 * Picks a frame of the video as its thumbnail: a scrubber over the video itself. The browser only
 * shows the frame; the server cuts it from the stored video at the chosen time.
 */
export function FramePicker({ src, duration, value, onChange }: {
  src: string;
  duration: number;
  value: number | null;
  onChange: (seconds: number | null) => void;
}) {
  const ref = useRef<HTMLVideoElement>(null);
  useEffect(() => {
    if (ref.current && value !== null) ref.current.currentTime = value;
  }, [value]);
  return (
    <fieldset className="flex flex-col gap-2 text-sm">
      <legend className="font-medium">Or use a frame of the video</legend>
      <video ref={ref} src={src} preload="metadata" muted playsInline className="aspect-video w-full rounded-lg bg-black" data-testid="frame-preview" />
      <input
        type="range"
        aria-label="Frame time"
        min={0}
        max={Math.max(0, duration - 0.05)}
        step={0.05}
        value={value ?? 0}
        onChange={(e) => onChange(Number(e.target.value))}
      />
      <span className="text-neutral-500">{value === null ? 'No frame picked' : `Frame at ${value.toFixed(2)} s`}</span>
    </fieldset>
  );
}
