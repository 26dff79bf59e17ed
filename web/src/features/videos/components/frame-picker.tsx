import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { currentLanguage } from '@/i18n/i18n';

/** Seconds with two decimals, as the language writes them: 12.50, 12,50. */
function formatSeconds(seconds: number): string {
  return new Intl.NumberFormat(currentLanguage(), { minimumFractionDigits: 2, maximumFractionDigits: 2, useGrouping: false }).format(seconds);
}

/**
 * Picks a frame of a video as its thumbnail: a scrubber over the video itself (the stored video
 * when editing, the chosen local file when uploading). The browser only shows the frame; the
 * server cuts it at the chosen time. Without a `duration` the video's own is read once it loads.
 */
export function FramePicker({
  src,
  duration,
  value,
  onChange,
  legend,
}: {
  src: string;
  duration?: number;
  value: number | null;
  onChange: (seconds: number | null) => void;
  legend?: string;
}) {
  const { t } = useTranslation('videos');
  const ref = useRef<HTMLVideoElement>(null);
  const [loaded, setLoaded] = useState<number | null>(null);
  const length = duration ?? loaded ?? 0;
  useEffect(() => {
    if (ref.current && value !== null) ref.current.currentTime = value;
  }, [value]);
  return (
    <fieldset className="flex min-w-0 flex-col gap-2 text-sm">
      <legend className="mb-2 font-medium text-neutral-700 dark:text-neutral-300">{legend ?? t('framePicker.legend')}</legend>
      <video
        ref={ref}
        src={src}
        preload="auto"
        muted
        playsInline
        className="aspect-video w-full rounded-lg bg-black"
        data-testid="frame-preview"
        onLoadedMetadata={(e) => {
          const video = e.currentTarget;
          if (Number.isFinite(video.duration)) setLoaded(video.duration);
          // Shows the picked frame rather than nothing until the first move of the slider.
          video.currentTime = value ?? 0;
        }}
      />
      {/* A timeline, left to right in every language like the player's seek bar. */}
      <input
        type="range"
        dir="ltr"
        aria-label={t('framePicker.time')}
        aria-valuetext={value === null ? t('framePicker.none') : t('framePicker.seconds', { count: value, seconds: formatSeconds(value) })}
        min={0}
        max={Math.max(0, length - 0.05)}
        step={0.05}
        value={value ?? 0}
        disabled={length <= 0}
        onChange={(e) => onChange(Number(e.target.value))}
        className="accent-rose-600"
      />
      <span className="text-neutral-500 dark:text-neutral-400" data-testid="frame-time">
        {value === null ? t('framePicker.none') : t('framePicker.frameAt', { seconds: formatSeconds(value) })}
      </span>
    </fieldset>
  );
}
