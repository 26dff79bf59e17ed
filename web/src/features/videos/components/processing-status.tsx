import type { VideoDetail } from '@reelhouse/contract';
import { useTranslation } from 'react-i18next';
import { ProgressBar } from '@/components/ui/progress-bar';
import { formatNumber } from '@/lib/format';
import { failureReasonText } from '../lib/failure-reason';

export function ProcessingStatus({ video }: { video: VideoDetail }) {
  const { t } = useTranslation('videos');
  if (video.status === 'failed') {
    return (
      <div role="alert" className="flex aspect-video w-full flex-col items-center justify-center gap-2 rounded-xl bg-neutral-900 p-6 text-center text-white">
        <p className="text-lg font-semibold">{t('processing.failed')}</p>
        <p className="text-sm text-neutral-300">{video.failureReason ? failureReasonText(video.failureReason) : t('processing.unknownError')}</p>
      </div>
    );
  }
  return (
    <div
      className="flex aspect-video w-full flex-col items-center justify-center gap-4 rounded-xl bg-neutral-900 bg-cover bg-center p-6 text-white bg-blend-multiply"
      style={{ backgroundImage: `linear-gradient(rgba(0,0,0,.65), rgba(0,0,0,.65)), url(${JSON.stringify(video.thumbnail.url)})` }}
    >
      <p className="text-lg font-semibold">{t('processing.processing')}</p>
      <ProgressBar label={t('processing.progress')} percent={video.progress} className="w-2/3 bg-neutral-700" />
      <p className="text-sm text-neutral-300">{t('processing.percent', { percent: formatNumber(video.progress) })}</p>
    </div>
  );
}
