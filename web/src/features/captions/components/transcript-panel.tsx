import type { Caption } from '@reelhouse/contract';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/primitives';
import { playerTime, seekPlayer } from '@/features/player/player-control';
import { cn } from '@/lib/cn';
import { formatDuration } from '@/lib/format';
import { useCaptionCues } from '../api/captions.api';
import { activeCueIndex } from '../api/webvtt';
import { savedCaptionLanguage } from '../caption-language';

const POLL_MS = 250;

/**
 * "Show transcript": the cues of one caption track as lines that seek the player, the line being
 * said highlighted while it plays. Starts on the language the viewer last chose in the player.
 */
export function TranscriptPanel({ captions }: { captions: Caption[] }) {
  const { t } = useTranslation('captions');
  const [open, setOpen] = useState(false);
  const [language, setLanguage] = useState(() => {
    const saved = savedCaptionLanguage();
    return captions.find((c) => c.language === saved)?.language ?? captions[0]?.language ?? '';
  });
  const caption = captions.find((c) => c.language === language) ?? captions[0] ?? null;
  const cues = useCaptionCues(open && caption ? caption.url : null);
  const [current, setCurrent] = useState(-1);
  const listRef = useRef<HTMLOListElement>(null);

  useEffect(() => {
    if (!open || !cues.data) return;
    const list = cues.data;
    const timer = window.setInterval(() => {
      const time = playerTime();
      setCurrent(time === null ? -1 : activeCueIndex(list, time));
    }, POLL_MS);
    return () => window.clearInterval(timer);
  }, [open, cues.data]);

  // Keeps the line being said in view inside the panel, without scrolling the page.
  useEffect(() => {
    const list = listRef.current;
    const line = list?.querySelector<HTMLElement>(`[data-cue="${current}"]`);
    if (!list || !line) return;
    if (line.offsetTop < list.scrollTop || line.offsetTop + line.offsetHeight > list.scrollTop + list.clientHeight) {
      list.scrollTop = line.offsetTop - list.clientHeight / 3;
    }
  }, [current]);

  if (!captions.length) return null;
  return (
    <section className="mt-3 rounded-xl border border-neutral-200 dark:border-neutral-800" aria-label={t('transcript.label')}>
      <div className="flex flex-wrap items-center gap-2 p-2">
        <Button size="sm" aria-expanded={open} onClick={() => setOpen((o) => !o)}>
          {open ? t('transcript.hide') : t('transcript.show')}
        </Button>
        {open && captions.length > 1 && (
          <select
            aria-label={t('transcript.language')}
            className="h-8 rounded-full border border-neutral-300 bg-white px-3 text-sm dark:border-neutral-700 dark:bg-neutral-900"
            value={caption?.language}
            onChange={(e) => setLanguage(e.target.value)}
          >
            {captions.map((c) => (
              <option key={c._id} value={c.language}>
                {c.label}
              </option>
            ))}
          </select>
        )}
      </div>
      {open && (
        <div className="border-t border-neutral-200 dark:border-neutral-800">
          {cues.isPending && <p className="p-3 text-sm text-neutral-500">{t('transcript.loading')}</p>}
          {cues.isError && <p className="p-3 text-sm text-red-600">{t('transcript.failed')}</p>}
          {cues.data && (
            <ol ref={listRef} className="relative max-h-80 overflow-y-auto p-1" data-testid="transcript">
              {cues.data.map((cue, i) => (
                <li key={`${cue.start}-${i}`} data-cue={i}>
                  <button
                    type="button"
                    aria-current={i === current ? 'true' : undefined}
                    onClick={() => seekPlayer(cue.start)}
                    className={cn(
                      'flex w-full gap-3 rounded-lg px-2 py-1.5 text-start text-sm hover:bg-neutral-100 dark:hover:bg-neutral-800',
                      i === current && 'bg-rose-50 font-medium text-rose-900 dark:bg-rose-950 dark:text-rose-100',
                    )}
                  >
                    <span className="w-14 shrink-0 tabular-nums text-neutral-500 dark:text-neutral-400">{formatDuration(cue.start)}</span>
                    <span>{cue.text}</span>
                  </button>
                </li>
              ))}
            </ol>
          )}
        </div>
      )}
    </section>
  );
}
