import type { Language, User } from '@reelhouse/contract';
import { useCallback, useEffect, useRef } from 'react';
import { api } from '@/lib/api-client';
import { useAuth } from '@/lib/auth';
import { changeLanguage, currentLanguage, LANGUAGE_STORAGE_KEY } from './i18n';
import { isLanguageCode } from './languages';

const saveAccountLanguage = (language: Language | null) => api.patch<{ language: Language | null }>('/users/language', { language });

function chosenOnThisDevice(): boolean {
  try {
    return isLanguageCode(window.localStorage.getItem(LANGUAGE_STORAGE_KEY));
  } catch {
    return false;
  }
}

/**
 * Keeps the interface's language and the signed-in account's in step, so that the choice follows
 * the user between devices: on signing in, the account's language is taken up; an account with none
 * takes the one chosen on this device, if one was. Renders nothing.
 */
export function AccountLanguageSync() {
  const { user, dispatch } = useAuth();
  const seen = useRef<string | null>(null);

  useEffect(() => {
    if (!user || seen.current === user._id) {
      if (!user) seen.current = null;
      return;
    }
    seen.current = user._id;
    if (user.language && user.language !== currentLanguage()) void changeLanguage(user.language);
    else if (!user.language && chosenOnThisDevice()) {
      void saveAccountLanguage(currentLanguage())
        .then(({ language }) => dispatch({ type: 'set-user', user: { ...user, language } }))
        .catch(() => {});
    }
  }, [user, dispatch]);
  return null;
}

/** What the language menu and the account settings call with a new choice: kept on the account too, when signed in. */
export function useChooseLanguage(): (language: Language) => Promise<void> {
  const { user, dispatch } = useAuth();
  return useCallback(
    async (language: Language) => {
      await changeLanguage(language);
      if (!user || user.language === language) return;
      // Kept on this device whatever happens: an account that cannot keep it (the shared demo
      // account) just does not carry it to other devices.
      const saved = await saveAccountLanguage(language).catch(() => null);
      if (saved) dispatch({ type: 'set-user', user: { ...user, language: saved.language } satisfies User });
    },
    [user, dispatch],
  );
}
