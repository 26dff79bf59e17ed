import { useState, type FormEvent } from 'react';
import { Button, InlineMessage, TextArea, TextField } from '@/components/ui/primitives';
import { errorMessage } from '@/lib/api-client';
import { formatBytes } from '@/lib/format';
import type { UploadProgress } from '@/lib/upload';
import { uploadVideo } from '../api/videos.api';

const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/jpg', 'image/webp'];
const IMAGE_ACCEPT = '.png,.jpeg,.jpg,.webp,image/png,image/jpeg,image/webp';

export interface UploadInput {
  title: string;
  description: string;
  videoFile: File | null;
  thumbnail: File | null;
}

export function validateUpload(input: UploadInput): Partial<Record<keyof UploadInput, string>> {
  const errors: Partial<Record<keyof UploadInput, string>> = {};
  if (!input.title.trim()) errors.title = 'Title is required';
  if (!input.description.trim()) errors.description = 'Description is required';
  if (!input.videoFile) errors.videoFile = 'Video file is required';
  else if (input.videoFile.type !== 'video/mp4' && !input.videoFile.name.toLowerCase().endsWith('.mp4'))
    errors.videoFile = 'Video must be an mp4 file';
  if (!input.thumbnail) errors.thumbnail = 'Thumbnail is required';
  else if (!IMAGE_TYPES.includes(input.thumbnail.type) && !/\.(png|jpe?g|webp)$/i.test(input.thumbnail.name))
    errors.thumbnail = 'Thumbnail must be a png, jpeg, jpg or webp image';
  return errors;
}

export function UploadForm({ onUploaded }: { onUploaded: (videoId: string) => void }) {
  const [input, setInput] = useState<UploadInput>({ title: '', description: '', videoFile: null, thumbnail: null });
  const [errors, setErrors] = useState<Partial<Record<keyof UploadInput, string>>>({});
  const [progress, setProgress] = useState<UploadProgress | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const busy = progress !== null;

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    const errs = validateUpload(input);
    setErrors(errs);
    if (Object.keys(errs).length) return;
    setFailure(null);
    setProgress({ loaded: 0, total: input.videoFile!.size, percent: 0 });
    const form = new FormData();
    form.append('title', input.title.trim());
    form.append('description', input.description.trim());
    form.append('videoFile', input.videoFile!);
    form.append('thumbnail', input.thumbnail!);
    try {
      const video = await uploadVideo(form, setProgress);
      onUploaded(video._id);
    } catch (err) {
      setFailure(errorMessage(err, 'Upload failed'));
      setProgress(null);
    }
  }

  return (
    <form onSubmit={onSubmit} noValidate className="flex max-w-2xl flex-col gap-4">
      <TextField label="Title" value={input.title} maxLength={100} onChange={(e) => setInput({ ...input, title: e.target.value })} error={errors.title} required />
      <TextArea
        label="Description"
        value={input.description}
        onChange={(e) => setInput({ ...input, description: e.target.value })}
        error={errors.description}
        required
      />
      <TextField
        label="Video file (mp4)"
        type="file"
        accept="video/mp4"
        onChange={(e) => setInput({ ...input, videoFile: e.target.files?.[0] ?? null })}
        error={errors.videoFile}
        required
      />
      <TextField
        label="Thumbnail"
        type="file"
        accept={IMAGE_ACCEPT}
        onChange={(e) => setInput({ ...input, thumbnail: e.target.files?.[0] ?? null })}
        error={errors.thumbnail}
        required
      />
      {progress && (
        <div className="flex flex-col gap-1">
          <div
            role="progressbar"
            aria-label="Upload progress"
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={progress.percent}
            className="h-2 overflow-hidden rounded-full bg-neutral-200 dark:bg-neutral-800"
          >
            <div className="h-full bg-rose-600 transition-[width]" style={{ width: `${progress.percent}%` }} />
          </div>
          <p className="text-sm text-neutral-600 dark:text-neutral-400" data-testid="upload-progress">
            {formatBytes(progress.loaded)} / {formatBytes(progress.total)} ({progress.percent}%)
          </p>
        </div>
      )}
      {failure && <InlineMessage>{failure}</InlineMessage>}
      <Button type="submit" variant="primary" disabled={busy} className="self-start">
        {busy ? 'Uploading…' : 'Upload'}
      </Button>
    </form>
  );
}
