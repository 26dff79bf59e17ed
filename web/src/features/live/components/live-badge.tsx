import { useTranslation } from 'react-i18next';
import { cn } from '@/lib/cn';

/** The red LIVE mark of a video on air, on the player and on cards. */
export function LiveBadge({ className, size = 'md' }: { className?: string; size?: 'sm' | 'md' }) {
  const { t } = useTranslation('live');
  return (
    <span
      className={cn(
        'inline-flex items-center gap-1 rounded bg-red-600 font-bold uppercase tracking-wide text-white',
        size === 'sm' ? 'px-1.5 py-px text-[11px]' : 'px-2 py-0.5 text-xs',
        className,
      )}
      data-testid="live-badge"
    >
      <span className="h-1.5 w-1.5 rounded-full bg-white" aria-hidden="true" />
      {t('badge')}
    </span>
  );
}
