import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { GlobeIcon } from '@/components/ui/icons';
import { useChooseLanguage } from './account-language';
import { LANGUAGES, type LanguageCode } from './languages';

/**
 * The top bar's language menu: a button that opens a menu of the languages, each in its own name.
 * Arrow keys, Home and End move between them, Escape closes the menu and gives focus back to the
 * button. A signed-in user's account keeps the choice too.
 */
export function LanguagePicker() {
  const { t, i18n } = useTranslation();
  const chooseLanguage = useChooseLanguage();
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const items = useRef<(HTMLButtonElement | null)[]>([]);
  const current = LANGUAGES.findIndex((l) => l.code === i18n.language);

  useEffect(() => {
    if (open) items.current[Math.max(0, current)]?.focus();
  }, [open, current]);

  useEffect(() => {
    if (!open) return;
    const close = (e: MouseEvent) => {
      if (!(e.target instanceof Node) || !button.current?.parentElement?.contains(e.target)) setOpen(false);
    };
    document.addEventListener('mousedown', close);
    return () => document.removeEventListener('mousedown', close);
  }, [open]);

  function closeMenu() {
    setOpen(false);
    button.current?.focus();
  }

  async function choose(language: LanguageCode) {
    closeMenu();
    await chooseLanguage(language);
  }

  function onMenuKey(e: KeyboardEvent<HTMLDivElement>) {
    const at = items.current.findIndex((el) => el === document.activeElement);
    const go = (i: number) => items.current[(i + LANGUAGES.length) % LANGUAGES.length]?.focus();
    if (e.key === 'ArrowDown') go(at + 1);
    else if (e.key === 'ArrowUp') go(at - 1);
    else if (e.key === 'Home') go(0);
    else if (e.key === 'End') go(LANGUAGES.length - 1);
    else if (e.key === 'Escape') closeMenu();
    else if (e.key === 'Tab') setOpen(false);
    else return;
    e.preventDefault();
  }

  return (
    <div className="relative">
      <button
        ref={button}
        type="button"
        aria-label={t('chooseLanguage')}
        title={t('language')}
        aria-haspopup="menu"
        aria-expanded={open}
        onClick={() => setOpen((o) => !o)}
        className="rounded-full p-2 hover:bg-neutral-100 dark:hover:bg-neutral-800"
        data-testid="language-picker"
      >
        <GlobeIcon />
      </button>
      {open && (
        <div
          role="menu"
          aria-label={t('language')}
          onKeyDown={onMenuKey}
          className="absolute end-0 top-full z-40 mt-1 min-w-44 rounded-lg border border-neutral-200 bg-white py-1 shadow-lg dark:border-neutral-700 dark:bg-neutral-900"
        >
          {LANGUAGES.map((language, i) => (
            <button
              key={language.code}
              ref={(el) => {
                items.current[i] = el;
              }}
              type="button"
              role="menuitemradio"
              aria-checked={language.code === i18n.language}
              lang={language.code}
              dir={language.dir}
              tabIndex={-1}
              onClick={() => void choose(language.code)}
              className="block w-full px-4 py-2 text-start text-sm hover:bg-neutral-100 focus:bg-neutral-100 aria-checked:font-semibold dark:hover:bg-neutral-800 dark:focus:bg-neutral-800"
            >
              {language.name}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
