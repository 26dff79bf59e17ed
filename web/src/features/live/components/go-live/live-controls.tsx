import type { LiveDetail } from '@reelhouse/contract';
import { useState } from 'react';
import { ConfirmDialog } from '@/components/ui/dialog';
import { Button } from '@/components/ui/primitives';
import { errorMessage } from '@/lib/api-client';
import { useEndLive, useUpdateLive } from '../../api/live.api';

type Notify = (message: string, kind: 'error' | 'success' | 'info') => void;

const SLOW_MODES = [
  { seconds: 0, label: 'Off' },
  { seconds: 5, label: '5 seconds' },
  { seconds: 10, label: '10 seconds' },
  { seconds: 30, label: '30 seconds' },
  { seconds: 60, label: '1 minute' },
  { seconds: 300, label: '5 minutes' },
];

/** The chat's slow mode and the end of the live. */
export function LiveControls({ live, notify }: { live: LiveDetail; notify: Notify }) {
  const update = useUpdateLive(live.videoId);
  const end = useEndLive(live.videoId);
  const [confirming, setConfirming] = useState(false);
  const ended = live.status === 'ended';
  const options = SLOW_MODES.some((m) => m.seconds === live.chat.slowModeSeconds)
    ? SLOW_MODES
    : [...SLOW_MODES, { seconds: live.chat.slowModeSeconds, label: `${live.chat.slowModeSeconds} seconds` }];

  async function setSlowMode(seconds: number) {
    try {
      await update.mutateAsync({ slowModeSeconds: seconds });
      notify(seconds ? 'Slow mode is on' : 'Slow mode is off', 'success');
    } catch (err) {
      notify(errorMessage(err, 'Slow mode could not be changed'), 'error');
    }
  }

  async function finish() {
    try {
      await end.mutateAsync();
      notify(live.saveReplay ? 'The live has ended; its replay is being prepared' : 'The live has ended', 'success');
    } catch (err) {
      notify(errorMessage(err, 'The live could not be ended'), 'error');
    } finally {
      setConfirming(false);
    }
  }

  return (
    <section aria-labelledby="live-controls" className="flex flex-wrap items-end justify-between gap-4">
      <h2 id="live-controls" className="sr-only">
        Live settings
      </h2>
      <label className="flex flex-col gap-1 text-sm font-medium">
        Chat slow mode
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
        {ended ? 'Live ended' : 'End live'}
      </Button>
      <ConfirmDialog
        open={confirming}
        title="End the live?"
        message={
          live.permanent
            ? 'The encoder is cut off and this session ends; the live waits for your next session with the same key.'
            : live.saveReplay
              ? 'The encoder is cut off and the live is over for good; its recording becomes the replay at the same address.'
              : 'The encoder is cut off and the live is over for good; without a saved replay, the video is removed.'
        }
        confirmLabel="End live"
        busy={end.isPending}
        onConfirm={() => void finish()}
        onCancel={() => setConfirming(false)}
      />
    </section>
  );
}
