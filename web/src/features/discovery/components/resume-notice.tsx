import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { seekPlayer } from '@/features/player/player-control';
import { formatDuration } from '@/lib/format';
import { knownPosition } from '../lib/position-store';
import { resumePosition } from '../lib/resume-rules';

/**
 * Where a video page's player starts: the viewer's saved place, read once per video when the
 * page knows who is watching (`ready`), so saves made while watching do not move it.
 */
export function useResumeStart(
  video: { _id: string; duration: number; watchPosition: number | null },
  signedIn: boolean,
  ready: boolean,
): { at: number | null; startOver(): void } {
  const [start, setStart] = useState<{ videoId: string; at: number | null } | null>(null);
  if (ready && start?.videoId !== video._id) {
    const at = resumePosition(knownPosition(video._id, signedIn, video.watchPosition), video.duration);
    setStart({ videoId: video._id, at });
  }
  const at = start?.videoId === video._id ? start.at : null;
  // Also stops a resume the player has not applied yet (media still loading) from jumping ahead.
  const startOver = useCallback(() => {
    setStart({ videoId: video._id, at: null });
    seekPlayer(0);
  }, [video._id]);
  return { at, startOver };
}

/** YouTube's way: the video starts where it was left, with a line saying so and a way back to the start. */
export function ResumeNotice({ at, onStartOver }: { at: number; onStartOver(): void }) {
  const { t } = useTranslation('discovery');
  return (
    <div role="status" className="mt-3 flex items-center justify-between gap-3 rounded-lg bg-neutral-100 px-3 py-2 text-sm dark:bg-neutral-800">
      <span>{t('resume.resumedFrom', { time: formatDuration(at) })}</span>
      <button
        type="button"
        className="rounded-md px-2 py-1 font-medium text-rose-700 hover:bg-neutral-200 dark:text-rose-400 dark:hover:bg-neutral-700"
        onClick={onStartOver}
      >
        {t('resume.startOver')}
      </button>
    </div>
  );
}
