import type { VideoQuality, VideoQualityList } from '@vidstack/react';

/** hls.js's report of the rung now playing (`hlsLevelSwitched`), as vidstack names it when passing it on. */
const STREAM_REPORT = 'hls-level-switched';

interface QualityChange extends Event {
  detail: { prev: VideoQuality | null; current: VideoQuality | null };
  trigger?: Event;
}

/**
 * Keeps the rung a viewer picks by hand; `pinLevel` pins the stream to a rung of the list.
 *
 * vidstack marks whichever rung hls.js reports as playing as selected, and its own listener then
 * pins hls.js to the selected rung once automatic mode is off. Two ways that loses a viewer's pick:
 * - a report already on its way when the viewer picks another rung (a fragment of the old rung
 *   starting to play, or still buffered where the viewer seeks back to) pins the old rung instead;
 *   a report that disagrees with a pick made by hand puts the pick back;
 * - picking, in automatic mode, the rung shown as playing changes no selection, so vidstack never
 *   pins it and the next automatic switch is taken for a choice; that pick is pinned here.
 * In automatic mode reports are only shown, as before.
 */
export function keepQualityChoice(qualities: VideoQualityList, pinLevel: (index: number) => void): () => void {
  let chosen: VideoQuality | null = null;
  let pickWithoutChange = false;
  const onChange = (event: Event) => {
    const { detail, trigger } = event as QualityChange;
    if (qualities.auto) {
      chosen = null;
      return;
    }
    if (trigger?.type !== STREAM_REPORT) {
      chosen = detail.current;
      pickWithoutChange = false;
      return;
    }
    if (chosen && detail.current !== chosen && qualities.toArray().includes(chosen)) chosen.selected = true;
  };
  const onAutoChange = () => {
    if (qualities.auto) {
      chosen = null;
      return;
    }
    // Automatic mode ends as a pick starts; the pick's change, if any, follows at once.
    pickWithoutChange = true;
    queueMicrotask(() => {
      if (!pickWithoutChange || qualities.auto) return;
      pickWithoutChange = false;
      chosen = qualities.selected;
      if (chosen) pinLevel(qualities.selectedIndex);
    });
  };
  qualities.addEventListener('change', onChange);
  qualities.addEventListener('auto-change', onAutoChange);
  return () => {
    qualities.removeEventListener('change', onChange);
    qualities.removeEventListener('auto-change', onAutoChange);
  };
}
