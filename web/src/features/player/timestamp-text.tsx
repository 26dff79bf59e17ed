import { splitTimestamps } from '@reelhouse/contract';
import type { MouseEvent } from 'react';
import { seekPlayer } from './player-control';

/** A plain left click seeks the page's player; a middle or modified click opens the link as links do. */
export function onTimestampClick(event: MouseEvent<HTMLAnchorElement>, seconds: number): void {
  if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  event.preventDefault();
  seekPlayer(seconds);
}

/**
 * Text with its timestamps (`1:05`, `1:02:03`) as links that seek the page's player. Every other
 * character is rendered exactly as given, as text nodes: nothing in `text` is ever read as markup.
 * A timestamp at or past the video's `duration` points nowhere and stays plain text.
 */
export function TimestampText({ text, duration }: { text: string; duration: number }) {
  return (
    <>
      {splitTimestamps(text, duration).map((part, i) =>
        part.kind === 'text' ? (
          part.text
        ) : (
          <a
            // Parts never reorder for a given text, so their place is a stable key.
            key={i}
            href={`?t=${part.seconds}`}
            onClick={(event) => onTimestampClick(event, part.seconds)}
            className="font-medium text-sky-700 hover:underline dark:text-sky-400"
            data-timestamp={part.seconds}
          >
            {part.text}
          </a>
        ),
      )}
    </>
  );
}
