import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, TextField } from '@/components/ui/primitives';
import { errorMessage } from '@/lib/api-client';
import { useCreatePlaylist, validateNewPlaylist } from '../api/playlists.api';

export function CreatePlaylistForm({
  onCreated,
  onError,
  compact,
}: {
  onCreated?: (id: string) => void;
  onError: (message: string) => void;
  compact?: boolean;
}) {
  const { t } = useTranslation('playlists');
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [errors, setErrors] = useState<{ name?: string; description?: string }>({});
  const create = useCreatePlaylist();

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    e.stopPropagation();
    const errs = validateNewPlaylist({ name, description });
    setErrors(errs);
    if (errs.name || errs.description) return;
    try {
      const p = await create.mutateAsync({ name, description });
      setName('');
      setDescription('');
      onCreated?.(p._id);
    } catch (err) {
      onError(errorMessage(err, t('createFailed')));
    }
  }

  return (
    <form onSubmit={onSubmit} noValidate className={compact ? 'flex flex-col gap-2' : 'flex max-w-md flex-col gap-3'}>
      <TextField label={t('form.name')} value={name} onChange={(e) => setName(e.target.value)} error={errors.name} required />
      <TextField label={t('form.description')} value={description} onChange={(e) => setDescription(e.target.value)} error={errors.description} required />
      <Button type="submit" variant="primary" size="sm" disabled={create.isPending} className="self-start">
        {t('form.submit')}
      </Button>
    </form>
  );
}
