import type { User } from '@reelhouse/contract';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ConfirmDialog } from '@/components/ui/dialog';
import { Button, TextField } from '@/components/ui/primitives';
import { errorMessage, isApiError } from '@/lib/api-client';
import { changeAvatar, changeCoverImage, deleteAccount, updateAccount } from '../api/users.api';

const IMAGE_ACCEPT = '.png,.jpeg,.jpg,.webp,image/png,image/jpeg,image/webp';

interface Props {
  user: User;
  notify: (message: string, kind: 'error' | 'success' | 'info') => void;
  onUserChange: (user: User) => void;
  onDeleted: () => void;
}

export function EditProfileForm({ user, notify, onUserChange, onDeleted }: Props) {
  const { t } = useTranslation('users');
  const [fullName, setFullName] = useState('');
  const [username, setUsername] = useState('');
  const [busy, setBusy] = useState(false);
  const [confirm, setConfirm] = useState(false);
  const [deleting, setDeleting] = useState(false);

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    const body: { fullName?: string; username?: string } = {};
    if (fullName.trim()) body.fullName = fullName.trim();
    if (username.trim()) body.username = username.trim().toLowerCase();
    if (!body.fullName && !body.username) {
      notify(t('profile.nothingToUpdate'), 'error');
      return;
    }
    setBusy(true);
    try {
      const updated = await updateAccount(body);
      onUserChange(updated);
      setFullName('');
      setUsername('');
      notify(t('profile.updated'), 'success');
    } catch (err) {
      notify(isApiError(err) && err.message === 'username exists' ? t('profile.usernameTaken') : errorMessage(err, t('profile.updateFailed')), 'error');
    } finally {
      setBusy(false);
    }
  }

  async function onImage(kind: 'avatar' | 'cover', file: File | undefined) {
    if (!file) return;
    try {
      const updated = kind === 'avatar' ? await changeAvatar(file) : await changeCoverImage(file);
      onUserChange(updated);
      notify(kind === 'avatar' ? t('profile.avatarUpdated') : t('profile.coverUpdated'), 'success');
    } catch (err) {
      notify(errorMessage(err, t('profile.imageFailed')), 'error');
    }
  }

  async function onDelete() {
    setDeleting(true);
    try {
      await deleteAccount();
      setConfirm(false);
      onDeleted();
    } catch {
      notify(t('profile.deleteFailed'), 'error');
      setDeleting(false);
      setConfirm(false);
    }
  }

  return (
    <div className="flex max-w-xl flex-col gap-8">
      <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4">
        <TextField label={t('profile.fullName')} placeholder={user.fullName} value={fullName} onChange={(e) => setFullName(e.target.value)} />
        <TextField label={t('profile.username')} placeholder={user.username} value={username} onChange={(e) => setUsername(e.target.value)} />
        <Button type="submit" variant="primary" disabled={busy} className="self-start">
          {t('profile.update')}
        </Button>
      </form>
      <section className="flex flex-col gap-4" aria-labelledby="images-heading">
        <h2 id="images-heading" className="font-semibold">
          {t('profile.images')}
        </h2>
        <TextField label={t('profile.changeAvatar')} type="file" accept={IMAGE_ACCEPT} onChange={(e) => void onImage('avatar', e.target.files?.[0])} />
        <TextField label={t('profile.changeCover')} type="file" accept={IMAGE_ACCEPT} onChange={(e) => void onImage('cover', e.target.files?.[0])} />
      </section>
      <section className="flex flex-wrap gap-3 border-t border-neutral-200 pt-6 dark:border-neutral-800">
        <Link
          to={`/${user.username}/change-password`}
          className="inline-flex h-10 items-center rounded-full bg-neutral-100 px-4 text-sm font-medium hover:bg-neutral-200 dark:bg-neutral-800 dark:hover:bg-neutral-700"
        >
          {t('profile.changePassword')}
        </Link>
        <Link
          to={`/${user.username}/devices`}
          className="inline-flex h-10 items-center rounded-full bg-neutral-100 px-4 text-sm font-medium hover:bg-neutral-200 dark:bg-neutral-800 dark:hover:bg-neutral-700"
        >
          {t('profile.security')}
        </Link>
        <Button variant="danger" onClick={() => setConfirm(true)}>
          {t('profile.deleteAccount')}
        </Button>
      </section>
      <ConfirmDialog
        open={confirm}
        title={t('profile.deleteTitle')}
        message={t('profile.deleteMessage')}
        confirmLabel={t('profile.deleteConfirm')}
        busy={deleting}
        onConfirm={onDelete}
        onCancel={() => setConfirm(false)}
      />
    </div>
  );
}
