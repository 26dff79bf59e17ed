import { useNavigate } from 'react-router';
import { PageTitle } from '@/components/ui/primitives';
import { useToast } from '@/components/ui/toast';
import { QuotaLine } from '@/features/videos/components/quota-line';
import { UploadForm } from '@/features/videos/components/upload-form';

export default function AddVideoPage() {
  const navigate = useNavigate();
  const toast = useToast();
  return (
    <div className="mx-auto max-w-4xl">
      <PageTitle>Add Video</PageTitle>
      <QuotaLine />
      <UploadForm
        onUploaded={(id) => {
          toast.success('Video uploaded successfully');
          navigate(`/video/${id}`);
        }}
      />
    </div>
  );
}
