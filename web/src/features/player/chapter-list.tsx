import { formatTimestamp, type Chapter } from '@reelhouse/contract';
import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '@/lib/format';
import { seekPlayer } from './player-control';
import { parseStoryboard, tileAt, type StoryboardTile } from './storyboard-tiles';

const THUMB_WIDTH = 96;

/** The storyboard's tiles, fetched once per index; none while loading or when it cannot be read. */
function useStoryboardTiles(storyboardUrl: string | null): StoryboardTile[] {
  const q = useQuery({
    queryKey: ['storyboard', storyboardUrl],
    enabled: storyboardUrl !== null,
    staleTime: Infinity,
    retry: false,
    queryFn: async ({ signal }) => {
      const url = new URL(storyboardUrl!, window.location.href).href;
      const res = await fetch(url, { signal });
      if (!res.ok) throw new Error(`storyboard ${res.status}`);
      return parseStoryboard(await res.text(), url);
    },
  });
  return q.data ?? [];
}

/** A tile of a sprite sheet, scaled to THUMB_WIDTH. */
function ChapterThumb({ tile }: { tile: StoryboardTile }) {
  const scale = THUMB_WIDTH / tile.width;
  return (
    <span
      aria-hidden="true"
      className="block shrink-0 overflow-hidden rounded-md bg-neutral-900"
      style={{ width: THUMB_WIDTH, height: Math.round(tile.height * scale) }}
    >
      <img
        src={tile.url}
        alt=""
        className="max-w-none origin-top-left"
        style={{ transform: `scale(${scale}) translate(${-tile.x}px, ${-tile.y}px)` }}
        loading="lazy"
      />
    </span>
  );
}

/**
 * The description's chapters as a collapsible list; each seeks the page's player to its start.
 * With a storyboard, each shows the seek-preview tile of its first seconds.
 */
export function ChapterList({ chapters, storyboardUrl }: { chapters: readonly Chapter[]; storyboardUrl: string | null }) {
  const { t } = useTranslation('player');
  const [open, setOpen] = useState(true);
  const listId = useId();
  const tiles = useStoryboardTiles(chapters.length > 0 ? storyboardUrl : null);
  if (chapters.length === 0) return null;
  return (
    <section className="mt-4 rounded-xl border border-neutral-200 p-3 dark:border-neutral-800" aria-label={t('chapterList.label')}>
      <button
        type="button"
        className="flex w-full items-center justify-between text-start text-sm font-semibold"
        aria-expanded={open}
        aria-controls={listId}
        onClick={() => setOpen((x) => !x)}
      >
        <span>
          {t('chapterList.title')} <span className="font-normal text-neutral-500">({formatNumber(chapters.length)})</span>
        </span>
        <span aria-hidden="true" className="text-neutral-500">
          {open ? '▴' : '▾'}
        </span>
      </button>
      {open && (
        <ol id={listId} className="mt-2 flex flex-col gap-1" data-testid="chapter-list">
          {chapters.map((chapter) => {
            // A second in, past the fade or black frame many videos open a section with.
            const tile = tileAt(tiles, chapter.start + 1);
            return (
              <li key={chapter.start}>
                <button
                  type="button"
                  onClick={() => seekPlayer(chapter.start)}
                  className="flex w-full items-center gap-3 rounded-lg p-1.5 text-start text-sm hover:bg-neutral-100 dark:hover:bg-neutral-800"
                >
                  {tile && <ChapterThumb tile={tile} />}
                  <span className="min-w-0">
                    <span className="block truncate font-medium">{chapter.title}</span>
                    <span className="text-xs font-medium text-sky-700 dark:text-sky-400">{formatTimestamp(chapter.start)}</span>
                  </span>
                </button>
              </li>
            );
          })}
        </ol>
      )}
    </section>
  );
}
