import type { CreateLiveBody, Visibility } from '@reelhouse/contract';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, InlineMessage, TextArea, TextField } from '@/components/ui/primitives';
import { errorMessage } from '@/lib/api-client';
import { useCreateLive } from '../../api/live.api';

const CHECK = 'h-4 w-4 accent-rose-600';

/** A new live: what it is called, who sees it, whether it stays and keeps its replay, and when it starts. */
export function CreateLiveForm({ onCreated }: { onCreated: (videoId: string) => void }) {
  const { t } = useTranslation('live');
  const create = useCreateLive();
  const [title, setTitle] = useState('');
  const [description, setDescription] = useState('');
  const [visibility, setVisibility] = useState<Visibility>('public');
  const [permanent, setPermanent] = useState(false);
  const [saveReplay, setSaveReplay] = useState(true);
  const [scheduled, setScheduled] = useState('');
  const [error, setError] = useState<string | null>(null);
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;

  async function submit(e: FormEvent) {
    e.preventDefault();
    setError(null);
    const body: CreateLiveBody = { title: title.trim(), description: description.trim(), visibility, permanent, saveReplay };
    if (scheduled) body.scheduledStart = new Date(scheduled).toISOString();
    try {
      const made = await create.mutateAsync(body);
      onCreated(made.video._id);
    } catch (err) {
      setError(errorMessage(err, t('create.failed')));
    }
  }

  return (
    <form onSubmit={(e) => void submit(e)} className="flex flex-col gap-4" aria-label={t('create.label')}>
      <TextField label={t('create.title')} value={title} onChange={(e) => setTitle(e.target.value)} required maxLength={100} />
      <TextArea label={t('create.description')} value={description} onChange={(e) => setDescription(e.target.value)} required />
      <div className="grid gap-4 sm:grid-cols-2">
        <label className="flex flex-col gap-1 text-sm font-medium text-neutral-700 dark:text-neutral-300">
          {t('create.visibility')}
          <select
            value={visibility}
            onChange={(e) => setVisibility(e.target.value as Visibility)}
            className="h-10 rounded-lg border border-neutral-300 bg-white px-2 text-sm font-normal text-neutral-900 dark:border-neutral-700 dark:bg-neutral-900 dark:text-neutral-100"
          >
            <option value="public">{t('create.public')}</option>
            <option value="unlisted">{t('create.unlisted')}</option>
            <option value="private">{t('create.private')}</option>
          </select>
        </label>
        <TextField
          label={t('create.scheduled')}
          type="datetime-local"
          value={scheduled}
          onChange={(e) => setScheduled(e.target.value)}
          hint={t('create.scheduledHint', { zone })}
        />
      </div>
      <label className="flex items-start gap-2 text-sm">
        <input type="checkbox" className={`${CHECK} mt-0.5`} checked={saveReplay} onChange={(e) => setSaveReplay(e.target.checked)} />
        <span>
          <span className="font-medium">{t('create.saveReplay')}</span>
          <span className="block text-xs text-neutral-500">{t('create.saveReplayHint')}</span>
        </span>
      </label>
      <label className="flex items-start gap-2 text-sm">
        <input type="checkbox" className={`${CHECK} mt-0.5`} checked={permanent} onChange={(e) => setPermanent(e.target.checked)} />
        <span>
          <span className="font-medium">{t('create.permanent')}</span>
          <span className="block text-xs text-neutral-500">{t('create.permanentHint')}</span>
        </span>
      </label>
      {error && <InlineMessage>{error}</InlineMessage>}
      <div>
        <Button type="submit" variant="primary" disabled={create.isPending || !title.trim() || !description.trim()}>
          {t('create.submit')}
        </Button>
      </div>
    </form>
  );
}
