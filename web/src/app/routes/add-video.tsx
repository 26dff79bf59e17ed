import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { LiveIcon } from '@/components/ui/icons';
import { PageTitle } from '@/components/ui/primitives';
import { useToast } from '@/components/ui/toast';
import { QuotaLine } from '@/features/videos/components/quota-line';
import { UploadForm } from '@/features/videos/components/upload-form';

export default function AddVideoPage() {
  const { t } = useTranslation('app');
  const navigate = useNavigate();
  const { username = '' } = useParams();
  const toast = useToast();
  return (
    <div className="mx-auto max-w-4xl">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <PageTitle>{t('addVideo.title')}</PageTitle>
        <Link to={`/${username}/studio/live`} className="inline-flex items-center gap-1.5 text-sm font-medium text-rose-600 hover:underline dark:text-rose-400">
          <LiveIcon width={18} height={18} /> {t('addVideo.goLiveInstead')}
        </Link>
      </div>
      <QuotaLine />
      <UploadForm
        onUploaded={(id) => {
          toast.success(t('addVideo.uploaded'));
          navigate(`/video/${id}`);
        }}
      />
    </div>
  );
}
