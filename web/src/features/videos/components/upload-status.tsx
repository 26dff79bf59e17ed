import { useTranslation } from 'react-i18next';
import { ProgressBar } from '@/components/ui/progress-bar';
import { formatBytes, formatDuration, formatNumber } from '@/lib/format';
import type { ResumableProgress } from '@/lib/resumable-upload';

/** How a resumable upload is going: bytes, speed, time left, and whether it is waiting on the network. */
export function UploadStatus({ fileName, progress, publishing }: { fileName: string; progress: ResumableProgress; publishing: boolean }) {
  const { loaded, total, percent, bytesPerSecond, secondsLeft, resumedFrom, retrying } = progress;
  const { t } = useTranslation('videos');
  const state = publishing
    ? t('uploadStatus.publishing', { fileName })
    : retrying
      ? t('uploadStatus.retrying', { fileName })
      : t('uploadStatus.uploading', { fileName });
  return (
    <div className="flex flex-col gap-2 rounded-xl bg-neutral-100 p-4 dark:bg-neutral-900">
      <div className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1 text-sm">
        <span className="min-w-0 truncate font-medium" data-testid="upload-state">
          {state}
        </span>
        <span className="shrink-0 tabular-nums text-neutral-600 dark:text-neutral-400" data-testid="upload-progress">
          {t('uploadStatus.progress', { loaded: formatBytes(loaded), total: formatBytes(total), percent: formatNumber(percent) })}
        </span>
      </div>
      <ProgressBar label={t('uploadStatus.label')} percent={percent} className="bg-neutral-200 dark:bg-neutral-800" />
      <div className="flex flex-wrap justify-between gap-x-3 text-xs tabular-nums text-neutral-600 dark:text-neutral-400">
        <span data-testid="upload-speed">
          {publishing
            ? t('uploadStatus.allSent')
            : bytesPerSecond
              ? t('uploadStatus.speed', { speed: formatBytes(bytesPerSecond) })
              : retrying
                ? t('uploadStatus.waiting')
                : t('uploadStatus.measuring')}
        </span>
        {!publishing && secondsLeft !== null && <span data-testid="upload-time-left">{t('uploadStatus.timeLeft', { time: formatDuration(secondsLeft) })}</span>}
        {resumedFrom !== null && resumedFrom > 0 && <span data-testid="upload-resumed">{t('uploadStatus.resumed', { size: formatBytes(resumedFrom) })}</span>}
      </div>
      <p className="text-xs text-neutral-500 dark:text-neutral-400">{t('uploadStatus.keepEditing')}</p>
    </div>
  );
}
