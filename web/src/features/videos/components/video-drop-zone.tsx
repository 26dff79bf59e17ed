import { useId, useState, type DragEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { UploadIcon } from '@/components/ui/icons';
import { cn } from '@/lib/cn';
import { formatBytes, formatDuration } from '@/lib/format';
import { useObjectUrl } from '@/lib/use-object-url';
import { VIDEO_ACCEPT, formatResolution, type FilePickerProps } from '../lib/upload-files';

type Metadata = { duration: number; width: number; height: number } | 'unreadable' | null;

/** Where the video is chosen: dropped on the zone, or picked with the file dialog (a click on the
 *  zone, or Enter/Space on the focused input inside it). Every choice goes to `onChoose`; the form
 *  decides whether to keep it. */
export function VideoDropZone({ label, file, error, disabled, onChoose }: FilePickerProps) {
  const id = useId();
  const [dragging, setDragging] = useState(false);

  function onDragOver(e: DragEvent) {
    if (disabled || !e.dataTransfer.types.includes('Files')) return;
    e.preventDefault(); // allows the drop
    e.dataTransfer.dropEffect = 'copy';
    setDragging(true);
  }

  function onDrop(e: DragEvent) {
    e.preventDefault();
    setDragging(false);
    if (disabled) return;
    const dropped = e.dataTransfer.files[0];
    if (dropped) onChoose(dropped);
  }

  return (
    <div className="flex flex-col gap-1">
      <span id={`${id}-label`} className="text-sm font-medium text-neutral-700 dark:text-neutral-300">
        {label}
      </span>
      <label
        htmlFor={`${id}-input`}
        data-testid="video-drop-zone"
        data-dragging={dragging || undefined}
        onDragEnter={onDragOver}
        onDragOver={onDragOver}
        onDragLeave={(e) => {
          if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setDragging(false);
        }}
        onDrop={onDrop}
        className={cn(
          'relative flex rounded-2xl border-2 border-dashed transition-colors focus-within:border-rose-500 focus-within:ring-4 focus-within:ring-rose-500/20',
          disabled ? 'cursor-not-allowed opacity-70' : 'cursor-pointer hover:border-rose-400 hover:bg-rose-50/40 dark:hover:bg-rose-500/5',
          dragging
            ? 'border-rose-500 bg-rose-50 dark:bg-rose-500/10'
            : error
              ? 'border-red-400 dark:border-red-500/70'
              : 'border-neutral-300 dark:border-neutral-700',
          file ? 'p-3 sm:p-4' : 'px-4 py-8 sm:py-10',
        )}
      >
        <input
          id={`${id}-input`}
          type="file"
          accept={VIDEO_ACCEPT}
          className="sr-only"
          disabled={disabled}
          aria-labelledby={`${id}-label`}
          aria-describedby={error ? `${id}-err` : `${id}-hint`}
          aria-invalid={error ? true : undefined}
          onChange={(e) => {
            const chosen = e.target.files?.[0];
            // Cleared so that choosing the same file again (after a refusal) fires again.
            e.target.value = '';
            if (chosen) onChoose(chosen);
          }}
        />
        {file ? <ChosenVideo file={file} hintId={`${id}-hint`} /> : <EmptyZone dragging={dragging} hintId={`${id}-hint`} />}
      </label>
      {error && (
        <p id={`${id}-err`} role="alert" className="text-sm text-red-600 dark:text-red-400">
          {error}
        </p>
      )}
    </div>
  );
}

function EmptyZone({ dragging, hintId }: { dragging: boolean; hintId: string }) {
  const { t } = useTranslation('videos');
  return (
    <div className="flex w-full flex-col items-center gap-3 text-center">
      <span className="flex h-14 w-14 items-center justify-center rounded-full bg-neutral-100 text-neutral-600 dark:bg-neutral-800 dark:text-neutral-300">
        <UploadIcon width={28} height={28} />
      </span>
      <p className="text-base font-semibold text-neutral-900 dark:text-neutral-100">{dragging ? t('dropZone.dropToChoose') : t('dropZone.dragAndDrop')}</p>
      <p id={hintId} className="text-sm text-neutral-500 dark:text-neutral-400">
        {t('dropZone.orClick')}
      </p>
      <span className="mt-1 inline-flex h-9 items-center rounded-full bg-neutral-900 px-4 text-sm font-medium text-white dark:bg-white dark:text-neutral-900">
        {t('dropZone.selectFile')}
      </span>
    </div>
  );
}

function ChosenVideo({ file, hintId }: { file: File; hintId: string }) {
  const url = useObjectUrl(file);
  // Keyed by the URL so a new file starts from "reading…" again.
  return url ? <ChosenVideoBody key={url} url={url} file={file} hintId={hintId} /> : null;
}

function ChosenVideoBody({ url, file, hintId }: { url: string; file: File; hintId: string }) {
  const { t } = useTranslation('videos');
  const [meta, setMeta] = useState<Metadata>(null);
  return (
    <div className="flex w-full min-w-0 flex-col gap-3 sm:flex-row sm:items-center sm:gap-4">
      <video
        src={url}
        preload="metadata"
        muted
        playsInline
        aria-hidden="true"
        tabIndex={-1}
        className="aspect-video w-full shrink-0 rounded-lg bg-black object-contain sm:w-56"
        onLoadedMetadata={(e) => {
          const v = e.currentTarget;
          setMeta({ duration: v.duration, width: v.videoWidth, height: v.videoHeight });
          // A frame a little way in says more about the video than a black first frame.
          if (Number.isFinite(v.duration) && v.duration > 0) v.currentTime = Math.min(1, v.duration / 3);
        }}
        onError={() => setMeta('unreadable')}
      />
      <div className="flex min-w-0 flex-1 flex-col gap-1">
        <p className="break-all text-sm font-semibold text-neutral-900 dark:text-neutral-100" data-testid="video-file-name">
          {file.name}
        </p>
        <dl className="flex flex-wrap gap-x-4 gap-y-1 text-sm text-neutral-600 dark:text-neutral-400">
          <Fact term={t('dropZone.size')} testId="video-file-size">
            {formatBytes(file.size)}
          </Fact>
          {meta === null && <Fact term={t('dropZone.duration')}>{t('dropZone.reading')}</Fact>}
          {meta !== null && meta !== 'unreadable' && (
            <>
              <Fact term={t('dropZone.duration')} testId="video-duration">
                {formatDuration(meta.duration)}
              </Fact>
              {meta.width > 0 && (
                <Fact term={t('dropZone.resolution')} testId="video-resolution">
                  {formatResolution(meta.width, meta.height)}
                </Fact>
              )}
            </>
          )}
          {meta === 'unreadable' && <Fact term={t('dropZone.duration')}>{t('dropZone.unreadable')}</Fact>}
        </dl>
        <p id={hintId} className="text-xs text-neutral-500 dark:text-neutral-400">
          {t('dropZone.replace')}
        </p>
      </div>
    </div>
  );
}

function Fact({ term, testId, children }: { term: string; testId?: string; children: ReactNode }) {
  return (
    <div className="flex gap-1">
      <dt className="text-neutral-500 dark:text-neutral-500">{term}</dt>
      <dd className="font-medium text-neutral-800 dark:text-neutral-200" data-testid={testId}>
        {children}
      </dd>
    </div>
  );
}
