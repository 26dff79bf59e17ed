import type { DefaultLayoutTranslations } from '@vidstack/react/player/layouts/default';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * The words of vidstack's default layout (its buttons, menus, tooltips and screen-reader
 * announcements) in the interface's language: vidstack looks each English word up in this map.
 */
export function useLayoutTranslations(): DefaultLayoutTranslations {
  // t is a new function whenever the language changes, and so is the map.
  const { t } = useTranslation('player');
  return useMemo(
    () => ({
      Announcements: t('controls.announcements'),
      Accessibility: t('controls.accessibility'),
      AirPlay: t('controls.airPlay'),
      Audio: t('controls.audio'),
      Auto: t('controls.auto'),
      Boost: t('controls.boost'),
      Captions: t('controls.captions'),
      'Caption Styles': t('controls.captionStyles'),
      'Captions look like this': t('controls.captionsLookLikeThis'),
      Chapters: t('controls.chapters'),
      'Closed-Captions Off': t('controls.closedCaptionsOff'),
      'Closed-Captions On': t('controls.closedCaptionsOn'),
      Connected: t('controls.connected'),
      Continue: t('controls.continue'),
      Connecting: t('controls.connecting'),
      Default: t('controls.default'),
      Disabled: t('controls.disabled'),
      Disconnected: t('controls.disconnected'),
      'Display Background': t('controls.displayBackground'),
      Download: t('controls.download'),
      'Enter Fullscreen': t('controls.enterFullscreen'),
      'Enter PiP': t('controls.enterPip'),
      'Exit Fullscreen': t('controls.exitFullscreen'),
      'Exit PiP': t('controls.exitPip'),
      Font: t('controls.font'),
      Family: t('controls.family'),
      Fullscreen: t('controls.fullscreen'),
      'Google Cast': t('controls.googleCast'),
      'Keyboard Animations': t('controls.keyboardAnimations'),
      LIVE: t('controls.live'),
      Loop: t('controls.loop'),
      Mute: t('controls.mute'),
      Normal: t('controls.normal'),
      Off: t('controls.off'),
      Pause: t('controls.pause'),
      Play: t('controls.play'),
      Playback: t('controls.playback'),
      PiP: t('controls.pip'),
      Quality: t('controls.quality'),
      Replay: t('controls.replay'),
      Reset: t('controls.reset'),
      'Seek Backward': t('controls.seekBackward'),
      'Seek Forward': t('controls.seekForward'),
      Seek: t('controls.seek'),
      Settings: t('controls.settings'),
      'Skip To Live': t('controls.skipToLive'),
      Speed: t('controls.speed'),
      Size: t('controls.size'),
      Color: t('controls.color'),
      Opacity: t('controls.opacity'),
      Shadow: t('controls.shadow'),
      Text: t('controls.text'),
      'Text Background': t('controls.textBackground'),
      Track: t('controls.track'),
      Unmute: t('controls.unmute'),
      Volume: t('controls.volume'),
    }),
    [t],
  );
}
