import type { LiveDetail } from '@reelhouse/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '@/components/ui/dialog';
import { Button } from '@/components/ui/primitives';
import { errorMessage } from '@/lib/api-client';
import { useEndLive, useUpdateLive } from '../../api/live.api';

type Notify = (message: string, kind: 'error' | 'success' | 'info') => void;

const SLOW_MODE_SECONDS = [0, 5, 10, 30, 60, 300];

/** The chat's slow mode and the end of the live. */
export function LiveControls({ live, notify }: { live: LiveDetail; notify: Notify }) {
  const { t } = useTranslation('live');
  const slowModeLabel = (seconds: number) =>
    seconds === 0 ? t('controls.off') : seconds % 60 === 0 ? t('controls.minutes', { count: seconds / 60 }) : t('controls.seconds', { count: seconds });
  const update = useUpdateLive(live.videoId);
  const end = useEndLive(live.videoId);
  const [confirming, setConfirming] = useState(false);
  const ended = live.status === 'ended';
  const options = (SLOW_MODE_SECONDS.includes(live.chat.slowModeSeconds) ? SLOW_MODE_SECONDS : [...SLOW_MODE_SECONDS, live.chat.slowModeSeconds]).map(
    (seconds) => ({ seconds, label: SLOW_MODE_SECONDS.includes(seconds) ? slowModeLabel(seconds) : t('controls.seconds', { count: seconds }) }),
  );

  async function setSlowMode(seconds: number) {
    try {
      await update.mutateAsync({ slowModeSeconds: seconds });
      notify(seconds ? t('controls.slowModeOn') : t('controls.slowModeOff'), 'success');
    } catch (err) {
      notify(errorMessage(err, t('controls.slowModeFailed')), 'error');
    }
  }

  async function finish() {
    try {
      await end.mutateAsync();
      notify(live.saveReplay ? t('controls.endedWithReplay') : t('controls.ended'), 'success');
    } catch (err) {
      notify(errorMessage(err, t('controls.endFailed')), 'error');
    } finally {
      setConfirming(false);
    }
  }

  return (
    <section aria-labelledby="live-controls" className="flex flex-wrap items-end justify-between gap-4">
      <h2 id="live-controls" className="sr-only">
        {t('controls.title')}
      </h2>
      <label className="flex flex-col gap-1 text-sm font-medium">
        {t('controls.slowMode')}
        <select
          value={live.chat.slowModeSeconds}
          disabled={update.isPending || ended}
          onChange={(e) => void setSlowMode(Number(e.target.value))}
          className="h-9 rounded-lg border border-neutral-300 bg-white px-2 text-sm font-normal dark:border-neutral-700 dark:bg-neutral-900"
        >
          {options.map((m) => (
            <option key={m.seconds} value={m.seconds}>
              {m.label}
            </option>
          ))}
        </select>
      </label>
      <Button variant="danger" disabled={ended || end.isPending} onClick={() => setConfirming(true)}>
        {ended ? t('controls.liveEnded') : t('controls.endLive')}
      </Button>
      <ConfirmDialog
        open={confirming}
        title={t('controls.confirmTitle')}
        message={live.permanent ? t('controls.confirmPermanent') : live.saveReplay ? t('controls.confirmReplay') : t('controls.confirmNoReplay')}
        confirmLabel={t('controls.endLive')}
        busy={end.isPending}
        onConfirm={() => void finish()}
        onCancel={() => setConfirming(false)}
      />
    </section>
  );
}
