import { act, fireEvent, render, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { readViewingPreferences, setViewingPreference, VIEWING_PREFERENCES_KEY } from './viewing-preferences';
import { ViewingPreferencesForm } from './viewing-preferences-form';

describe('viewing preferences', () => {
  beforeEach(() => localStorage.clear());

  it('start with shortcuts on and captions off, and keep what is chosen', () => {
    expect(readViewingPreferences()).toEqual({ keyboardShortcuts: true, captionsByDefault: false });
    setViewingPreference('keyboardShortcuts', false);
    expect(readViewingPreferences()).toEqual({ keyboardShortcuts: false, captionsByDefault: false });
    expect(JSON.parse(localStorage.getItem(VIEWING_PREFERENCES_KEY)!)).toEqual({ keyboardShortcuts: false, captionsByDefault: false });
  });

  it('read anything unreadable as the defaults', () => {
    localStorage.setItem(VIEWING_PREFERENCES_KEY, '{not json');
    expect(readViewingPreferences()).toEqual({ keyboardShortcuts: true, captionsByDefault: false });
    localStorage.setItem(VIEWING_PREFERENCES_KEY, JSON.stringify({ keyboardShortcuts: 'no', captionsByDefault: true }));
    expect(readViewingPreferences()).toEqual({ keyboardShortcuts: true, captionsByDefault: true });
  });

  it('are changed from the settings form, which follows changes made elsewhere', () => {
    render(<ViewingPreferencesForm />);
    const shortcuts = screen.getByRole<HTMLInputElement>('checkbox', { name: /Keyboard shortcuts/ });
    expect(shortcuts.checked).toBe(true);
    expect(document.getElementById(shortcuts.getAttribute('aria-describedby')!)?.textContent).toMatch(/Single keys such as K, J and L/);
    fireEvent.click(shortcuts);
    expect(readViewingPreferences().keyboardShortcuts).toBe(false);
    act(() => setViewingPreference('captionsByDefault', true));
    expect(screen.getByRole<HTMLInputElement>('checkbox', { name: 'Captions on by default' }).checked).toBe(true);
  });
});
