import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { MAX_APPEAL_LENGTH, type VideoDetail } from '@reelhouse/contract';
import { Button, InlineMessage, TextArea } from '@/components/ui/primitives';
import { videoKeys } from '@/features/videos/api/videos.api';
import { api, errorMessage } from '@/lib/api-client';

/**
 * Shown above a taken-down video to the only people who can still open it: its owner (with the one
 * appeal they may send) and staff.
 */
export function TakedownNotice({ video, isOwner }: { video: VideoDetail; isOwner: boolean }) {
  const { t } = useTranslation('app');
  const qc = useQueryClient();
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const takedown = video.takedown;
  if (!takedown) return null;

  async function onAppeal(e: FormEvent) {
    e.preventDefault();
    if (!text.trim()) return setError(t('takedown.appealEmpty'));
    setBusy(true);
    setError(null);
    try {
      await api.post(`/videos/${video._id}/appeal`, { text: text.trim() });
      await qc.invalidateQueries({ queryKey: videoKeys.detail(video._id) });
    } catch (err) {
      setError(errorMessage(err, t('takedown.appealFailed')));
    } finally {
      setBusy(false);
    }
  }

  return (
    <section
      aria-label={t('takedown.label')}
      className="mt-4 rounded-xl border border-amber-300 bg-amber-50 p-4 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100"
    >
      <p className="font-semibold">{t('takedown.title')}</p>
      <p className="mt-1">{t('takedown.reason', { reason: takedown.reason })}</p>
      <p className="mt-1 text-amber-800 dark:text-amber-200">{isOwner ? t('takedown.hiddenWhileDown') : t('takedown.hidden')}</p>
      {isOwner && takedown.appealedAt && (
        <p role="status" className="mt-2">
          {t('takedown.appealSent')}
        </p>
      )}
      {isOwner && !takedown.appealedAt && (
        <form onSubmit={onAppeal} className="mt-3 flex flex-col gap-2">
          {error && <InlineMessage>{error}</InlineMessage>}
          <TextArea label={t('takedown.appealLabel')} value={text} onChange={(e) => setText(e.target.value)} maxLength={MAX_APPEAL_LENGTH} />
          <Button type="submit" variant="primary" disabled={busy} className="self-start">
            {busy ? t('takedown.sending') : t('takedown.appeal')}
          </Button>
        </form>
      )}
    </section>
  );
}
