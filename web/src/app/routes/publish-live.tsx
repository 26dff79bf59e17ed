import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { PageTitle } from '@/components/ui/primitives';
import { BrowserPublisher } from '@/features/live-publish/components/browser-publisher';

/** A live published from this browser: the publisher alone, for a live of the signed-in user. */
export default function PublishLivePage() {
  const { t } = useTranslation('app');
  const { videoId = '' } = useParams();
  return (
    <div className="mx-auto max-w-3xl">
      <PageTitle>{t('goLive.publishFromBrowser')}</PageTitle>
      <BrowserPublisher videoId={videoId} />
    </div>
  );
}
