import { useEffect, useLayoutEffect, useRef, useState, type FormEvent } from 'react';
import { MAX_TITLE_LENGTH } from '@reelhouse/contract';
import { useTranslation } from 'react-i18next';
import { i18n } from '@/i18n/i18n';
import { Button, InlineMessage, TextArea, TextField } from '@/components/ui/primitives';
import { errorMessage, isApiError } from '@/lib/api-client';
import { type ResumableProgress, type ResumableUpload, startResumableUpload } from '@/lib/resumable-upload';
import { UploadCancelledError } from '@/lib/upload';
import { createVideoFromUpload } from '../api/videos.api';
import { scheduleError, uploadFields, type UploadChoices } from '../lib/upload-fields';
import { isMp4, isThumbnailImage, thumbnailTypeMessage, titleFromFileName, videoTypeMessage } from '../lib/upload-files';
import { ThumbnailChoice } from './thumbnail-choice';
import { UploadStatus } from './upload-status';
import { VideoDropZone } from './video-drop-zone';
import { VisibilityChoice } from './visibility-choice';

export interface UploadInput extends UploadChoices {
  videoFile: File | null;
}

export const EMPTY_UPLOAD: UploadInput = {
  title: '',
  description: '',
  videoFile: null,
  thumbnail: null,
  visibility: 'public',
  schedule: '',
  thumbnailSource: 'image',
  frameTime: 0,
};

type Errors = Partial<Record<keyof UploadInput, string>>;

export function validateUpload(input: UploadInput, now = Date.now()): Errors {
  const errors: Errors = {};
  if (!input.title.trim()) errors.title = i18n.t('videos:upload.titleRequired');
  if (!input.description.trim()) errors.description = i18n.t('videos:upload.descriptionRequired');
  if (!input.videoFile) errors.videoFile = i18n.t('videos:upload.videoRequired');
  else if (!isMp4(input.videoFile)) errors.videoFile = videoTypeMessage();
  // A frame needs nothing more: the slider always holds a time within the video.
  if (input.thumbnailSource === 'image') {
    if (!input.thumbnail) errors.thumbnail = i18n.t('videos:upload.thumbnailRequired');
    else if (!isThumbnailImage(input.thumbnail)) errors.thumbnail = thumbnailTypeMessage();
  }
  const schedule = scheduleError(input, now);
  if (schedule) errors.schedule = schedule;
  return errors;
}

export function UploadForm({ onUploaded }: { onUploaded: (videoId: string) => void }) {
  const { t } = useTranslation('videos');
  const [input, setInput] = useState<UploadInput>(EMPTY_UPLOAD);
  // The title this form filled in from a file name: replaced when another file is chosen, kept once edited.
  const [autoTitle, setAutoTitle] = useState<string | null>(null);
  const [errors, setErrors] = useState<Errors>({});
  const [progress, setProgress] = useState<ResumableProgress | null>(null);
  const [publishing, setPublishing] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [cancelled, setCancelled] = useState(false);
  const upload = useRef<ResumableUpload | null>(null);
  // A file already on the server whose publishing failed (say, a bad thumbnail): the next try only publishes.
  const uploaded = useRef<{ file: File; id: string } | null>(null);
  // Title, description and thumbnail stay editable during the upload: publishing reads the latest.
  const latest = useRef(input);
  useLayoutEffect(() => {
    latest.current = input;
  });
  const busy = progress !== null;

  // Leaving the page mid-upload pauses it (the browser remembers it: choosing the file again resumes).
  useEffect(() => () => upload.current?.pause(), []);

  function chooseVideo(file: File) {
    if (!isMp4(file)) {
      setErrors((e) => ({ ...e, videoFile: videoTypeMessage() }));
      return;
    }
    const prefill = !input.title.trim() || input.title === autoTitle;
    if (!prefill) {
      setErrors((e) => ({ ...e, videoFile: undefined }));
      setInput({ ...input, videoFile: file, frameTime: 0 });
      return;
    }
    const title = titleFromFileName(file.name);
    setAutoTitle(title);
    setErrors((e) => ({ ...e, videoFile: undefined, title: title ? undefined : e.title }));
    // A frame picked on another file means nothing for this one.
    setInput({ ...input, videoFile: file, title, frameTime: 0 });
  }

  function chooseThumbnail(file: File) {
    if (!isThumbnailImage(file)) {
      setErrors((e) => ({ ...e, thumbnail: thumbnailTypeMessage() }));
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
    const file = input.videoFile!;
    setProgress({ loaded: 0, total: file.size, percent: 0, bytesPerSecond: null, secondsLeft: null, resumedFrom: null, retrying: false });
    try {
      let uploadId = uploaded.current?.file === file ? uploaded.current.id : null;
      if (!uploadId) {
        const job = startResumableUpload(file, setProgress);
        upload.current = job;
        uploadId = await job.done;
        uploaded.current = { file, id: uploadId };
      }
      setPublishing(true);
      const video = await createVideoFromUpload(uploadId, uploadFields(latest.current));
      uploaded.current = null;
      onUploaded(video._id);
    } catch (err) {
      if (err instanceof UploadCancelledError) setCancelled(true);
      else setFailure(errorMessage(err, t('upload.failed')));
      // Refused as a video (or gone): that upload cannot be published, the next try sends the file anew.
      // A refused thumbnail or frame (or any 400 about the fields) keeps it: the next try only publishes.
      if (isApiError(err) && [404, 413, 415, 422].includes(err.status) && !/thumbnail|frame/i.test(err.message)) uploaded.current = null;
      setProgress(null);
    } finally {
      upload.current = null;
      setPublishing(false);
    }
  }

  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-6">
      <VideoDropZone label={t('upload.videoFile')} file={input.videoFile} error={errors.videoFile} disabled={busy} onChoose={chooseVideo} />
      <fieldset disabled={publishing} className="grid min-w-0 gap-6 md:grid-cols-[minmax(0,1fr)_17rem]">
        <div className="flex min-w-0 flex-col gap-4">
          <TextField
            label={t('fields.title')}
            value={input.title}
            maxLength={MAX_TITLE_LENGTH}
            placeholder={t('upload.titlePlaceholder')}
            onChange={(e) => setInput({ ...input, title: e.target.value })}
            error={errors.title}
            hint={`${input.title.length}/${MAX_TITLE_LENGTH}`}
            required
          />
          <TextArea
            label={t('fields.description')}
            value={input.description}
            rows={6}
            placeholder={t('upload.descriptionPlaceholder')}
            onChange={(e) => setInput({ ...input, description: e.target.value })}
            error={errors.description}
            required
          />
        </div>
        <div className="flex min-w-0 flex-col gap-6">
          <ThumbnailChoice
            source={input.thumbnailSource}
            onSource={(thumbnailSource) => {
              setErrors((e) => ({ ...e, thumbnail: undefined }));
              setInput({ ...input, thumbnailSource });
            }}
            videoFile={input.videoFile}
            image={input.thumbnail}
            imageError={errors.thumbnail}
            onImage={chooseThumbnail}
            frameTime={input.frameTime}
            onFrameTime={(frameTime) => setInput({ ...input, frameTime })}
            disabled={publishing}
          />
          <VisibilityChoice
            visibility={input.visibility}
            onVisibility={(visibility) => setInput({ ...input, visibility })}
            schedule={input.schedule}
            onSchedule={(schedule) => {
              setErrors((e) => ({ ...e, schedule: undefined }));
              setInput({ ...input, schedule });
            }}
            scheduleError={errors.schedule}
            disabled={publishing}
          />
        </div>
      </fieldset>
      {progress && <UploadStatus fileName={input.videoFile?.name ?? ''} progress={progress} publishing={publishing} />}
      {failure && <InlineMessage>{failure}</InlineMessage>}
      {cancelled && (
        <p role="status" className="text-sm text-neutral-600 dark:text-neutral-400">
          {t('upload.cancelled')}
        </p>
      )}
      <div className="flex flex-wrap items-center gap-3 border-t border-neutral-200 pt-4 dark:border-neutral-800">
        <Button type="submit" variant="primary" disabled={busy} className="min-w-28">
          {busy ? t('upload.uploading') : t('upload.upload')}
        </Button>
        {busy && !publishing && <Button onClick={() => upload.current?.cancel()}>{t('upload.cancel')}</Button>}
        <p className="text-xs text-neutral-500 dark:text-neutral-400">{t('upload.allRequired')}</p>
      </div>
    </form>
  );
}
