import { Menu, useMediaRemote, useMediaState } from '@vidstack/react';
import { DefaultMenuButton, DefaultMenuRadioGroup, useDefaultLayoutContext } from '@vidstack/react/player/layouts/default';
import { useTranslation } from 'react-i18next';
import { SPEED_STEPS } from './playback';

/**
 * The settings menu's speed choice as a list of radio items. vidstack's own speed menu puts a
 * slider straight inside a `menu`, which assistive technology cannot announce as a menu (player.css
 * hides it); a list is also what YouTube offers, and needs no dragging.
 */
export function SpeedMenu() {
  const { t } = useTranslation('player');
  const { icons } = useDefaultLayoutContext();
  const remote = useMediaRemote();
  const rate = useMediaState('playbackRate');
  const canSet = useMediaState('canSetPlaybackRate');
  if (!canSet) return null;
  const name = (step: number) => (step === 1 ? t('controls.normal') : t('flash.speed', { rate: step }));
  return (
    <Menu.Root className="vds-menu rh-speed-menu">
      <DefaultMenuButton label={t('controls.speed')} hint={name(rate)} Icon={icons.Menu.SpeedUp} />
      <Menu.Items className="vds-menu-items">
        <DefaultMenuRadioGroup
          value={String(rate)}
          options={SPEED_STEPS.map((step) => ({ label: name(step), value: String(step) }))}
          onChange={(value) => remote.changePlaybackRate(Number(value))}
        />
      </Menu.Items>
    </Menu.Root>
  );
}
