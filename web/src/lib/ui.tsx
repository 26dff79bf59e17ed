import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';

export type Theme = 'light' | 'dark';
export const MOBILE_BREAKPOINT_PX = 768;

interface UiContextValue {
  theme: Theme;
  toggleTheme: () => void;
  sidebarOpen: boolean;
  setSidebarOpen: (open: boolean) => void;
  toggleSidebar: () => void;
  isMobile: boolean;
}

const UiContext = createContext<UiContextValue | null>(null);

function media(query: string): MediaQueryList | null {
  return typeof window !== 'undefined' && window.matchMedia ? window.matchMedia(query) : null;
}

const darkQuery = '(prefers-color-scheme: dark)';
const wideQuery = `(min-width: ${MOBILE_BREAKPOINT_PX}px)`;

export function UiProvider({ children }: { children: ReactNode }) {
  // index.html has already put the class on <html> before paint; start from it so nothing flashes.
  const [theme, setTheme] = useState<Theme>(() =>
    typeof document !== 'undefined' && document.documentElement.classList.contains('dark') ? 'dark' : media(darkQuery)?.matches ? 'dark' : 'light',
  );
  const [isMobile, setIsMobile] = useState(() => !(media(wideQuery)?.matches ?? true));
  const [sidebarOpen, setSidebarOpen] = useState(() => !isMobile);

  useEffect(() => {
    const root = document.documentElement;
    root.classList.toggle('dark', theme === 'dark');
    root.style.colorScheme = theme;
  }, [theme]);

  useEffect(() => {
    const mq = media(darkQuery);
    if (!mq) return;
    const onChange = (e: MediaQueryListEvent) => setTheme(e.matches ? 'dark' : 'light');
    mq.addEventListener('change', onChange);
    return () => mq.removeEventListener('change', onChange);
  }, []);

  useEffect(() => {
    const mq = media(wideQuery);
    if (!mq) return;
    const onChange = (e: MediaQueryListEvent) => {
      setIsMobile(!e.matches);
      setSidebarOpen(e.matches);
    };
    mq.addEventListener('change', onChange);
    return () => mq.removeEventListener('change', onChange);
  }, []);

  const toggleTheme = useCallback(() => setTheme((t) => (t === 'dark' ? 'light' : 'dark')), []);
  const toggleSidebar = useCallback(() => setSidebarOpen((o) => !o), []);

  const value = useMemo(
    () => ({ theme, toggleTheme, sidebarOpen, setSidebarOpen, toggleSidebar, isMobile }),
    [theme, toggleTheme, sidebarOpen, toggleSidebar, isMobile],
  );
  return <UiContext.Provider value={value}>{children}</UiContext.Provider>;
}

export function useUi(): UiContextValue {
  const ctx = useContext(UiContext);
  if (!ctx) throw new Error('useUi outside UiProvider');
  return ctx;
}
