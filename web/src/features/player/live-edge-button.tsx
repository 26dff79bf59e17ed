import { useMediaRemote, useMediaState } from '@vidstack/react';
import { DefaultTooltip } from '@vidstack/react/player/layouts/default';
import { useTranslation } from 'react-i18next';

/**
 * The LIVE button of the controls: lit while playback is at the live edge, dim once the viewer
 * has gone back in the broadcast's window; pressing it jumps to the edge.
 */
export function LiveEdgeToggle({ atEdge, onJump }: { atEdge: boolean; onJump: () => void }) {
  const { t } = useTranslation('player');
  return (
    <button
      type="button"
      className="vds-button rh-live-edge"
      data-edge={atEdge ? '' : undefined}
      aria-label={atEdge ? t('live.atEdge') : t('live.jumpToLive')}
      aria-pressed={atEdge}
      onClick={onJump}
    >
      <span className="rh-live-edge-dot" aria-hidden="true" />
      {t('live.badge')}
    </button>
  );
}

/** LiveEdgeToggle on the player's own state: shown in place of the time while a live is on air. */
export function LiveEdgeButton() {
  const { t } = useTranslation('player');
  const live = useMediaState('live');
  const atEdge = useMediaState('liveEdge');
  const remote = useMediaRemote();
  if (!live) return null;
  return (
    <DefaultTooltip content={atEdge ? t('live.live') : t('live.jumpToLive')} placement="top">
      <LiveEdgeToggle atEdge={atEdge} onJump={() => remote.seekToLiveEdge()} />
    </DefaultTooltip>
  );
}
