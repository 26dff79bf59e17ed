import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Button, InlineMessage, TextArea, TextField } from '@/components/ui/primitives';
import { errorMessage } from '@/lib/api-client';
import { formatBytes } from '@/lib/format';
import { UploadCancelledError, type UploadProgress } from '@/lib/upload';
import { uploadVideo } from '../api/videos.api';
import {
  THUMBNAIL_TYPE_MESSAGE,
  TITLE_MAX,
  VIDEO_TYPE_MESSAGE,
  isMp4,
  isThumbnailImage,
  titleFromFileName,
} from '../lib/upload-files';
import { ThumbnailPicker } from './thumbnail-picker';
import { VideoDropZone } from './video-drop-zone';
import { ProgressBar } from '@/components/ui/progress-bar';

export interface UploadInput {
  title: string;
  description: string;
  videoFile: File | null;
  thumbnail: File | null;
}

type Errors = Partial<Record<keyof UploadInput, string>>;

export function validateUpload(input: UploadInput): Errors {
  const errors: Errors = {};
  if (!input.title.trim()) errors.title = 'Title is required';
  if (!input.description.trim()) errors.description = 'Description is required';
  if (!input.videoFile) errors.videoFile = 'Video file is required';
  else if (!isMp4(input.videoFile)) errors.videoFile = VIDEO_TYPE_MESSAGE;
  if (!input.thumbnail) errors.thumbnail = 'Thumbnail is required';
  else if (!isThumbnailImage(input.thumbnail)) errors.thumbnail = THUMBNAIL_TYPE_MESSAGE;
  return errors;
}

export function UploadForm({ onUploaded }: { onUploaded: (videoId: string) => void }) {
  const [input, setInput] = useState<UploadInput>({ title: '', description: '', videoFile: null, thumbnail: null });
  // The title this form filled in from a file name: replaced when another file is chosen, kept once edited.
  const [autoTitle, setAutoTitle] = useState<string | null>(null);
  const [errors, setErrors] = useState<Errors>({});
  const [progress, setProgress] = useState<UploadProgress | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [cancelled, setCancelled] = useState(false);
  const upload = useRef<AbortController | null>(null);
  const busy = progress !== null;

  // Leaving the page mid-upload stops it rather than redirecting later from nowhere.
  useEffect(() => () => upload.current?.abort(), []);

  function chooseVideo(file: File) {
    if (!isMp4(file)) {
      setErrors((e) => ({ ...e, videoFile: VIDEO_TYPE_MESSAGE }));
      return;
    }
    const prefill = !input.title.trim() || input.title === autoTitle;
    if (!prefill) {
      setErrors((e) => ({ ...e, videoFile: undefined }));
      setInput({ ...input, videoFile: file });
      return;
    }
    const title = titleFromFileName(file.name);
    setAutoTitle(title);
    setErrors((e) => ({ ...e, videoFile: undefined, title: title ? undefined : e.title }));
    setInput({ ...input, videoFile: file, title });
  }

  function chooseThumbnail(file: File) {
    if (!isThumbnailImage(file)) {
      setErrors((e) => ({ ...e, thumbnail: THUMBNAIL_TYPE_MESSAGE }));
      return;
    }
    setErrors((e) => ({ ...e, thumbnail: undefined }));
    setInput({ ...input, thumbnail: file });
  }

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    if (busy) return;
    const errs = validateUpload(input);
    setErrors(errs);
    if (Object.keys(errs).length) return;
    setFailure(null);
    setCancelled(false);
    setProgress({ loaded: 0, total: input.videoFile!.size, percent: 0 });
    const form = new FormData();
    form.append('title', input.title.trim());
    form.append('description', input.description.trim());
    form.append('videoFile', input.videoFile!);
    form.append('thumbnail', input.thumbnail!);
    const controller = new AbortController();
    upload.current = controller;
    try {
      const video = await uploadVideo(form, setProgress, controller.signal);
      onUploaded(video._id);
    } catch (err) {
      if (err instanceof UploadCancelledError) setCancelled(true);
      else setFailure(errorMessage(err, 'Upload failed'));
      setProgress(null);
    } finally {
      if (upload.current === controller) upload.current = null;
    }
  }

  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-6">
      <VideoDropZone label="Video file (mp4)" file={input.videoFile} error={errors.videoFile} disabled={busy} onChoose={chooseVideo} />
      <fieldset disabled={busy} className="grid min-w-0 gap-6 md:grid-cols-[minmax(0,1fr)_17rem]">
        <div className="flex min-w-0 flex-col gap-4">
          <TextField
            label="Title"
            value={input.title}
            maxLength={TITLE_MAX}
            placeholder="Add a title that describes your video"
            onChange={(e) => setInput({ ...input, title: e.target.value })}
            error={errors.title}
            hint={`${input.title.length}/${TITLE_MAX}`}
            required
          />
          <TextArea
            label="Description"
            value={input.description}
            rows={6}
            placeholder="Tell viewers about your video"
            onChange={(e) => setInput({ ...input, description: e.target.value })}
            error={errors.description}
            required
          />
        </div>
        <ThumbnailPicker label="Thumbnail" file={input.thumbnail} error={errors.thumbnail} disabled={busy} onChoose={chooseThumbnail} />
      </fieldset>
      {progress && (
        <div className="flex flex-col gap-2 rounded-xl bg-neutral-100 p-4 dark:bg-neutral-900">
          <div className="flex items-baseline justify-between gap-3 text-sm">
            <span className="font-medium">Uploading {input.videoFile?.name}</span>
            <span className="shrink-0 tabular-nums text-neutral-600 dark:text-neutral-400" data-testid="upload-progress">
              {formatBytes(progress.loaded)} / {formatBytes(progress.total)} ({progress.percent}%)
            </span>
          </div>
          <ProgressBar label="Upload progress" percent={progress.percent} className="bg-neutral-200 dark:bg-neutral-800" />
        </div>
      )}
      {failure && <InlineMessage>{failure}</InlineMessage>}
      {cancelled && (
        <p role="status" className="text-sm text-neutral-600 dark:text-neutral-400">
          Upload cancelled. Your choices are kept; press Upload to try again.
        </p>
      )}
      <div className="flex flex-wrap items-center gap-3 border-t border-neutral-200 pt-4 dark:border-neutral-800">
        <Button type="submit" variant="primary" disabled={busy} className="min-w-28">
          {busy ? 'Uploading…' : 'Upload'}
        </Button>
        {busy && <Button onClick={() => upload.current?.abort()}>Cancel</Button>}
        <p className="text-xs text-neutral-500 dark:text-neutral-400">All fields are required.</p>
      </div>
    </form>
  );
}
