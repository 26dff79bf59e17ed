import { useState } from 'react';
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
    notify('The browser would not copy: select the text and copy it', 'error');
  }
}

/** Where the encoder publishes: the server address and the stream key, hidden until asked for. */
export function StreamSetup({ videoId, rtmp, streamKey, notify }: { videoId: string; rtmp: string; streamKey: string; notify: Notify }) {
  const [shown, setShown] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const renew = useRenewKey(videoId);

  async function regenerate() {
    try {
      await renew.mutateAsync();
      setConfirming(false);
      notify('A new stream key is ready: put it in your encoder', 'success');
    } catch (err) {
      setConfirming(false);
      notify(errorMessage(err, 'The key could not be renewed'), 'error');
    }
  }

  return (
    <section aria-labelledby="stream-setup" className="flex flex-col gap-3">
      <h2 id="stream-setup" className="text-base font-semibold">
        Stream from an encoder
      </h2>
      <p className="text-sm text-neutral-600 dark:text-neutral-400">
        In OBS or any RTMP encoder, set the server to the URL below and the stream key to your key.
      </p>
      <div className="flex flex-col gap-1">
        <label htmlFor="rtmp-url" className="text-sm font-medium">
          Server URL
        </label>
        <div className="flex gap-2">
          <input id="rtmp-url" readOnly value={rtmp} className={FIELD} onFocus={(e) => e.target.select()} />
          <Button onClick={() => void copy(rtmp, 'Server URL copied!', notify)} aria-label="Copy the server URL">
            Copy
          </Button>
        </div>
      </div>
      <div className="flex flex-col gap-1">
        <label htmlFor="stream-key" className="text-sm font-medium">
          Stream key
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
            {shown ? 'Hide' : 'Show'}
          </Button>
          <Button onClick={() => void copy(streamKey, 'Stream key copied!', notify)} aria-label="Copy the stream key">
            Copy
          </Button>
          <Button variant="ghost" onClick={() => setConfirming(true)}>
            Regenerate
          </Button>
        </div>
        <p className="text-xs text-neutral-500">Anyone with this key can stream to your channel: keep it secret.</p>
      </div>
      <ConfirmDialog
        open={confirming}
        title="Regenerate the stream key?"
        message="The current key stops working at once: an encoder streaming with it is cut off, and you will need to put the new key in your encoder."
        confirmLabel="Regenerate"
        busy={renew.isPending}
        onConfirm={() => void regenerate()}
        onCancel={() => setConfirming(false)}
      />
    </section>
  );
}
