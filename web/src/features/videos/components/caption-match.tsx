import type { CaptionMatch } from '@reelhouse/contract';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatDuration } from '@/lib/format';

/** Under a search result found by what is said in it: where, and the words, linking to that moment. */
export function CaptionMatchLine({ videoId, match }: { videoId: string; match: CaptionMatch }) {
  const { t } = useTranslation('videos');
  const at = Math.floor(match.start);
  return (
    <Link
      to={`/video/${videoId}?t=${at}`}
      className="mt-1 block rounded-lg bg-neutral-100 px-2 py-1 text-xs text-neutral-700 hover:bg-neutral-200 dark:bg-neutral-800 dark:text-neutral-300 dark:hover:bg-neutral-700"
      data-testid="caption-match"
    >
      {t('captionMatch', { time: formatDuration(at), text: match.text })}
    </Link>
  );
}
