import type { VideoDetail } from '@reelhouse/contract';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '@/components/ui/dialog';
import { Button, InlineMessage, TextArea, TextField } from '@/components/ui/primitives';
import { errorMessage } from '@/lib/api-client';
import { useUpdateVideo } from '../api/videos.api';
import { FramePicker } from './frame-picker';

const IMAGE_ACCEPT = '.png,.jpeg,.jpg,.webp,image/png,image/jpeg,image/webp';

export function EditVideoDialog({
  video,
  open,
  onClose,
  notify,
}: {
  video: VideoDetail;
  open: boolean;
  onClose: () => void;
  notify: (message: string, kind: 'error' | 'success' | 'info') => void;
}) {
  const { t } = useTranslation('videos');
  const [title, setTitle] = useState('');
  const [description, setDescription] = useState('');
  const [thumbnail, setThumbnail] = useState<File | null>(null);
  const [frameTime, setFrameTime] = useState<number | null>(null);
  const [visibility, setVisibility] = useState('');
  const [publishAt, setPublishAt] = useState('');
  const [error, setError] = useState<string | null>(null);
  const update = useUpdateVideo(video._id);

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    if (!title.trim() && !description.trim() && !thumbnail && frameTime === null && !visibility && !publishAt) {
      setError(t('edit.noValue'));
      return;
    }
    setError(null);
    const form = new FormData();
    if (title.trim()) form.append('title', title.trim());
    if (description.trim()) form.append('description', description.trim());
    if (thumbnail) form.append('thumbnail', thumbnail);
    else if (frameTime !== null) form.append('thumbnailTime', frameTime.toFixed(2));
    if (publishAt) form.append('publishAt', new Date(publishAt).toISOString());
    else if (visibility) form.append('visibility', visibility);
    try {
      await update.mutateAsync(form);
      notify(t('edit.updated'), 'success');
      setTitle('');
      setDescription('');
      setThumbnail(null);
      setFrameTime(null);
      setVisibility('');
      setPublishAt('');
      onClose();
    } catch (err) {
      setError(errorMessage(err, t('edit.failed')));
    }
  }

  const keep: Record<VideoDetail['visibility'], string> = {
    public: t('edit.keepPublic'),
    unlisted: t('edit.keepUnlisted'),
    private: t('edit.keepPrivate'),
  };

  return (
    <Dialog open={open} onClose={onClose} title={t('edit.title')}>
      <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4">
        <TextField label={t('fields.title')} placeholder={video.title} value={title} onChange={(e) => setTitle(e.target.value)} />
        <TextArea label={t('fields.description')} placeholder={video.description} value={description} onChange={(e) => setDescription(e.target.value)} />
        <TextField label={t('fields.thumbnail')} type="file" accept={IMAGE_ACCEPT} onChange={(e) => setThumbnail(e.target.files?.[0] ?? null)} />
        {video.videoFile.url && video.duration > 0 && (
          <FramePicker src={video.videoFile.url} duration={video.duration} value={frameTime} onChange={setFrameTime} />
        )}
        <label className="flex flex-col gap-1 text-sm font-medium">
          {t('fields.visibility')}
          <select
            aria-label={t('fields.visibility')}
            className="h-10 rounded-lg border border-neutral-300 bg-white px-2 dark:border-neutral-700 dark:bg-neutral-900"
            value={visibility}
            onChange={(e) => setVisibility(e.target.value)}
          >
            <option value="">{keep[video.visibility]}</option>
            <option value="public">{t('visibility.public')}</option>
            <option value="unlisted">{t('edit.unlistedOption')}</option>
            <option value="private">{t('edit.privateOption')}</option>
          </select>
        </label>
        <TextField label={t('edit.publishAt')} type="datetime-local" value={publishAt} onChange={(e) => setPublishAt(e.target.value)} />
        {error && <InlineMessage>{error}</InlineMessage>}
        <div className="flex justify-end gap-2">
          <Button onClick={onClose}>{t('edit.cancel')}</Button>
          <Button type="submit" variant="primary" disabled={update.isPending}>
            {t('edit.save')}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
