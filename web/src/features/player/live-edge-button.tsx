import { useMediaRemote, useMediaState } from '@vidstack/react';
import { DefaultTooltip } from '@vidstack/react/player/layouts/default';

/**
 * The LIVE button of the controls: lit while playback is at the live edge, dim once the viewer
 * has gone back in the broadcast's window; pressing it jumps to the edge.
 */
export function LiveEdgeToggle({ atEdge, onJump }: { atEdge: boolean; onJump: () => void }) {
  return (
    <button
      type="button"
      className="vds-button rh-live-edge"
      data-edge={atEdge ? '' : undefined}
      aria-label={atEdge ? 'Live: playing the newest' : 'Jump to live'}
      aria-pressed={atEdge}
      onClick={onJump}
    >
      <span className="rh-live-edge-dot" aria-hidden="true" />
      LIVE
    </button>
  );
}

/** LiveEdgeToggle on the player's own state: shown in place of the time while a live is on air. */
export function LiveEdgeButton() {
  const live = useMediaState('live');
  const atEdge = useMediaState('liveEdge');
  const remote = useMediaRemote();
  if (!live) return null;
  return (
    <DefaultTooltip content={atEdge ? 'Live' : 'Jump to live'} placement="top">
      <LiveEdgeToggle atEdge={atEdge} onJump={() => remote.seekToLiveEdge()} />
    </DefaultTooltip>
  );
}
