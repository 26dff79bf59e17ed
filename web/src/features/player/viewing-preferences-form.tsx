import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { setViewingPreference, useViewingPreferences, type ViewingPreferences } from './viewing-preferences';

/**
 * The account settings' playback choices: the same as the player's accessibility menu, kept on
 * this device. Lives outside the player's chunk so that the settings page does not load vidstack.
 */
export function ViewingPreferencesForm() {
  const { t } = useTranslation('player');
  const preferences = useViewingPreferences();
  const hintId = useId();
  const box = (name: keyof ViewingPreferences, label: string, hint?: string) => (
    <label className="flex min-h-6 items-start gap-2 text-sm">
      <input
        type="checkbox"
        className="mt-0.5 size-5 shrink-0 accent-rose-600"
        checked={preferences[name]}
        aria-describedby={hint ? hintId : undefined}
        onChange={(e) => setViewingPreference(name, e.target.checked)}
      />
      <span>
        {label}
        {hint ? (
          <span id={hintId} className="block text-xs text-neutral-600 dark:text-neutral-400">
            {hint}
          </span>
        ) : null}
      </span>
    </label>
  );
  return (
    <fieldset className="flex flex-col gap-3">
      <legend className="mb-2 text-sm font-medium">{t('preferences.title')}</legend>
      {box('keyboardShortcuts', t('preferences.keyboardShortcuts'), t('preferences.keyboardShortcutsHint'))}
      {box('captionsByDefault', t('preferences.captionsByDefault'))}
    </fieldset>
  );
}
