import { type Caption, MAX_CAPTION_LABEL_LENGTH, MAX_CAPTION_LANGUAGE_LENGTH } from '@reelhouse/contract';
import { useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { TrashIcon } from '@/components/ui/icons';
import { Button, InlineMessage, TextField } from '@/components/ui/primitives';
import { errorMessage } from '@/lib/api-client';
import { useDeleteCaption, useUploadCaption } from '../api/captions.api';

interface Props {
  videoId: string;
  captions: Caption[];
  notify(message: string, kind: 'success' | 'error'): void;
}

/** The owner's captions of a video: the tracks there are, one to add (WebVTT or SRT), delete. */
export function CaptionsManager({ videoId, captions, notify }: Props) {
  const { t } = useTranslation('captions');
  const upload = useUploadCaption(videoId);
  const remove = useDeleteCaption(videoId);
  const fileRef = useRef<HTMLInputElement>(null);
  const [language, setLanguage] = useState('');
  const [label, setLabel] = useState('');
  const [error, setError] = useState<string | null>(null);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    const file = fileRef.current?.files?.[0];
    if (!language.trim()) return setError(t('manager.languageRequired'));
    if (!file) return setError(t('manager.fileRequired'));
    setError(null);
    try {
      const caption = await upload.mutateAsync({ language: language.trim(), label, file });
      notify(t('manager.added', { label: caption.label }), 'success');
      setLanguage('');
      setLabel('');
      if (fileRef.current) fileRef.current.value = '';
    } catch (err) {
      setError(errorMessage(err, t('manager.addFailed')));
    }
  }

  async function onDelete(caption: Caption) {
    try {
      await remove.mutateAsync(caption._id);
      notify(t('manager.deleted', { label: caption.label }), 'success');
    } catch (err) {
      notify(errorMessage(err, t('manager.deleteFailed')), 'error');
    }
  }

  return (
    <section aria-labelledby="captions-heading" className="mt-3 rounded-xl border border-neutral-200 p-4 dark:border-neutral-800">
      <h2 id="captions-heading" className="text-sm font-semibold">
        {t('manager.heading')}
      </h2>
      {captions.length === 0 ? (
        <p className="mt-2 text-sm text-neutral-600 dark:text-neutral-400">{t('manager.none')}</p>
      ) : (
        <ul className="mt-2 divide-y divide-neutral-200 dark:divide-neutral-800" aria-label={t('manager.list')}>
          {captions.map((c) => (
            <li key={c._id} className="flex items-center justify-between gap-3 py-2 text-sm">
              <span>
                {c.label} <span className="text-neutral-500">({c.language})</span>
              </span>
              <Button size="sm" aria-label={t('manager.deleteLabel', { label: c.label })} disabled={remove.isPending} onClick={() => void onDelete(c)}>
                <TrashIcon width={16} height={16} /> {t('manager.delete')}
              </Button>
            </li>
          ))}
        </ul>
      )}
      <form className="mt-3 grid gap-3 sm:grid-cols-[8rem_1fr_1fr_auto] sm:items-end" onSubmit={(e) => void onSubmit(e)} noValidate>
        <TextField
          label={t('manager.language')}
          placeholder={t('manager.languagePlaceholder')}
          value={language}
          onChange={(e) => setLanguage(e.target.value)}
          maxLength={MAX_CAPTION_LANGUAGE_LENGTH}
        />
        <TextField
          label={t('manager.label')}
          placeholder={t('manager.labelPlaceholder')}
          value={label}
          onChange={(e) => setLabel(e.target.value)}
          maxLength={MAX_CAPTION_LABEL_LENGTH}
        />
        <TextField ref={fileRef} label={t('manager.file')} type="file" accept=".vtt,.srt,text/vtt,application/x-subrip" />
        <Button type="submit" variant="primary" disabled={upload.isPending}>
          {upload.isPending ? t('manager.adding') : t('manager.add')}
        </Button>
      </form>
      <p className="mt-2 text-xs text-neutral-500 dark:text-neutral-400">{t('manager.formats')}</p>
      {error && (
        <div className="mt-2">
          <InlineMessage>{error}</InlineMessage>
        </div>
      )}
    </section>
  );
}
