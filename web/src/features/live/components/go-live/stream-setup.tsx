import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { i18n } from '@/i18n/i18n';
import { ConfirmDialog } from '@/components/ui/dialog';
import { Button } from '@/components/ui/primitives';
import { errorMessage } from '@/lib/api-client';
import { useRenewKey } from '../../api/live.api';

type Notify = (message: string, kind: 'error' | 'success' | 'info') => void;

const FIELD = 'h-10 min-w-0 flex-1 rounded-lg border border-neutral-300 bg-neutral-50 px-3 font-mono text-sm dark:border-neutral-700 dark:bg-neutral-950';

async function copy(text: string, done: string, notify: Notify) {
  try {
    await navigator.clipboard.writeText(text);
    notify(done, 'success');
  } catch {
    notify(i18n.t('live:setup.copyFailed'), 'error');
  }
}

/** Where the encoder publishes: the server address and the stream key, hidden until asked for. */
export function StreamSetup({ videoId, rtmp, streamKey, notify }: { videoId: string; rtmp: string; streamKey: string; notify: Notify }) {
  const { t } = useTranslation('live');
  const [shown, setShown] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const renew = useRenewKey(videoId);

  async function regenerate() {
    try {
      await renew.mutateAsync();
      setConfirming(false);
      notify(t('setup.keyRenewed'), 'success');
    } catch (err) {
      setConfirming(false);
      notify(errorMessage(err, t('setup.renewFailed')), 'error');
    }
  }

  return (
    <section aria-labelledby="stream-setup" className="flex flex-col gap-3">
      <h2 id="stream-setup" className="text-base font-semibold">
        {t('setup.title')}
      </h2>
      <p className="text-sm text-neutral-600 dark:text-neutral-400">{t('setup.intro')}</p>
      <div className="flex flex-col gap-1">
        <label htmlFor="rtmp-url" className="text-sm font-medium">
          {t('setup.serverUrl')}
        </label>
        <div className="flex gap-2">
          <input id="rtmp-url" readOnly value={rtmp} className={FIELD} onFocus={(e) => e.target.select()} />
          <Button onClick={() => void copy(rtmp, t('setup.serverUrlCopied'), notify)} aria-label={t('setup.copyServerUrl')}>
            {t('setup.copy')}
          </Button>
        </div>
      </div>
      <div className="flex flex-col gap-1">
        <label htmlFor="stream-key" className="text-sm font-medium">
          {t('setup.streamKey')}
        </label>
        <div className="flex flex-wrap gap-2">
          <input
            id="stream-key"
            readOnly
            type={shown ? 'text' : 'password'}
            value={streamKey}
            className={FIELD}
            autoComplete="off"
            onFocus={(e) => e.target.select()}
            data-testid="stream-key"
          />
          <Button onClick={() => setShown((s) => !s)} aria-pressed={shown}>
            {shown ? t('setup.hide') : t('setup.show')}
          </Button>
          <Button onClick={() => void copy(streamKey, t('setup.streamKeyCopied'), notify)} aria-label={t('setup.copyStreamKey')}>
            {t('setup.copy')}
          </Button>
          <Button variant="ghost" onClick={() => setConfirming(true)}>
            {t('setup.regenerate')}
          </Button>
        </div>
        <p className="text-xs text-neutral-500">{t('setup.keySecret')}</p>
      </div>
      <ConfirmDialog
        open={confirming}
        title={t('setup.confirmTitle')}
        message={t('setup.confirmMessage')}
        confirmLabel={t('setup.regenerate')}
        busy={renew.isPending}
        onConfirm={() => void regenerate()}
        onCancel={() => setConfirming(false)}
      />
    </section>
  );
}
