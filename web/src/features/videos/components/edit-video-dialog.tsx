import type { VideoDetail } from '@reelhouse/contract';
import { useState, type FormEvent } from 'react';
import { Dialog } from '@/components/ui/dialog';
import { Button, InlineMessage, TextArea, TextField } from '@/components/ui/primitives';
import { errorMessage } from '@/lib/api-client';
import { useUpdateVideo } from '../api/videos.api';

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
  const [title, setTitle] = useState('');
  const [description, setDescription] = useState('');
  const [thumbnail, setThumbnail] = useState<File | null>(null);
  const [error, setError] = useState<string | null>(null);
  const update = useUpdateVideo(video._id);

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    if (!title.trim() && !description.trim() && !thumbnail) {
      setError('No update value provided. Please provide at least one value.');
      return;
    }
    setError(null);
    const form = new FormData();
    if (title.trim()) form.append('title', title.trim());
    if (description.trim()) form.append('description', description.trim());
    if (thumbnail) form.append('thumbnail', thumbnail);
    try {
      await update.mutateAsync(form);
      notify('Video updated successfully', 'success');
      setTitle('');
      setDescription('');
      setThumbnail(null);
      onClose();
    } catch (err) {
      setError(errorMessage(err, 'Failed to update video'));
    }
  }

  return (
    <Dialog open={open} onClose={onClose} title="Edit video">
      <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4">
        <TextField label="Title" placeholder={video.title} value={title} onChange={(e) => setTitle(e.target.value)} />
        <TextArea label="Description" placeholder={video.description} value={description} onChange={(e) => setDescription(e.target.value)} />
        <TextField label="Thumbnail" type="file" accept={IMAGE_ACCEPT} onChange={(e) => setThumbnail(e.target.files?.[0] ?? null)} />
        {error && <InlineMessage>{error}</InlineMessage>}
        <div className="flex justify-end gap-2">
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="primary" disabled={update.isPending}>
            Save changes
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
