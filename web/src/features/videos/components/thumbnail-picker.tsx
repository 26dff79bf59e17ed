import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { ImageIcon } from '@/components/ui/icons';
import { cn } from '@/lib/cn';
import { formatBytes } from '@/lib/format';
import { useObjectUrl } from '@/lib/use-object-url';
import { IMAGE_ACCEPT, type FilePickerProps } from '../lib/upload-files';

/** A 16:9 tile that shows the chosen thumbnail as the video cards will; click or Enter/Space to choose. */
export function ThumbnailPicker({ label, file, error, disabled, onChoose }: FilePickerProps) {
  const { t } = useTranslation('videos');
  const id = useId();
  const preview = useObjectUrl(file);
  return (
    <div className="flex flex-col gap-1">
      <span id={`${id}-label`} className="text-sm font-medium text-neutral-700 dark:text-neutral-300">
        {label}
      </span>
      <label
        htmlFor={`${id}-input`}
        className={cn(
          'group relative flex aspect-video w-full overflow-hidden rounded-xl border-2 transition-colors focus-within:border-rose-500 focus-within:ring-4 focus-within:ring-rose-500/20',
          disabled ? 'cursor-not-allowed opacity-70' : 'cursor-pointer hover:border-rose-400',
          preview ? 'border-transparent bg-black' : 'border-dashed bg-neutral-50 dark:bg-neutral-900',
          !preview && (error ? 'border-red-400 dark:border-red-500/70' : 'border-neutral-300 dark:border-neutral-700'),
        )}
      >
        <input
          id={`${id}-input`}
          type="file"
          accept={IMAGE_ACCEPT}
          className="sr-only"
          disabled={disabled}
          aria-labelledby={`${id}-label`}
          aria-describedby={error ? `${id}-err` : `${id}-hint`}
          aria-invalid={error ? true : undefined}
          onChange={(e) => {
            const chosen = e.target.files?.[0];
            e.target.value = '';
            if (chosen) onChoose(chosen);
          }}
        />
        {preview ? (
          <>
            <img src={preview} alt={t('thumbnail.chosen')} className="h-full w-full object-cover" data-testid="thumbnail-preview" />
            <span className="absolute inset-x-0 bottom-0 bg-gradient-to-t from-black/75 to-transparent px-3 pb-2 pt-6 text-xs font-medium text-white opacity-90 group-hover:opacity-100">
              {t('thumbnail.change')}
            </span>
          </>
        ) : (
          <span className="m-auto flex flex-col items-center gap-2 px-3 text-center text-neutral-500 dark:text-neutral-400">
            <ImageIcon width={28} height={28} />
            <span className="text-sm font-medium text-neutral-700 dark:text-neutral-200">{t('thumbnail.choose')}</span>
          </span>
        )}
      </label>
      <p id={`${id}-hint`} className="truncate text-xs text-neutral-500 dark:text-neutral-400" data-testid="thumbnail-file">
        {file ? `${file.name} · ${formatBytes(file.size)}` : t('thumbnail.formats')}
      </p>
      {error && (
        <p id={`${id}-err`} role="alert" className="text-sm text-red-600 dark:text-red-400">
          {error}
        </p>
      )}
    </div>
  );
}
