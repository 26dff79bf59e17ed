import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { attachPlayer } from './player-control';
import { TimestampText } from './timestamp-text';

afterEach(cleanup);

function renderText(text: string, duration = 4000) {
  return render(
    <p data-testid="text">
      <TimestampText text={text} duration={duration} />
    </p>,
  );
}

describe('TimestampText', () => {
  it('links every timestamp and keeps the rest of the text exactly', () => {
    const text = 'Intro at 0:05, the build at 1:02:03.\n\nSkip to 12:30pm? No: 16:9 and 1:5 stay text.';
    renderText(text);
    expect(screen.getByTestId('text').textContent).toBe(text);
    const links = screen.getAllByRole('link');
    expect(links.map((a) => [a.textContent, a.getAttribute('href')])).toEqual([
      ['0:05', '?t=5'],
      ['1:02:03', '?t=3723'],
    ]);
  });

  it('renders markup in the text as text, never as HTML', () => {
    const text = '<img src=x onerror="alert(1)"> at <b>0:30</b> <a href="javascript:alert(1)">1:00</a>';
    const { container } = renderText(text);
    expect(screen.getByTestId('text').textContent).toBe(text);
    expect(container.querySelector('img, b')).toBeNull();
    expect(screen.getAllByRole('link').map((a) => a.getAttribute('href'))).toEqual(['?t=30', '?t=60']);
  });

  it("leaves timestamps at or past the video's end as plain text", () => {
    renderText('0:30 is in, 1:00 is the end, 2:00 is past it', 60);
    expect(screen.getAllByRole('link').map((a) => a.textContent)).toEqual(['0:30']);
  });

  it("seeks the page's player on a click instead of following the link", () => {
    const seek = vi.fn();
    const detach = attachPlayer({ seek, currentTime: () => 0 });
    try {
      renderText('see 1:05');
      const link = screen.getByRole('link', { name: '1:05' });
      const event = new MouseEvent('click', { bubbles: true, cancelable: true, button: 0 });
      link.dispatchEvent(event);
      expect(seek).toHaveBeenCalledWith(65);
      expect(event.defaultPrevented).toBe(true);

      // A modified click opens the link as links do (a new tab at that time).
      document.addEventListener('click', (e) => e.preventDefault(), { once: true }); // jsdom navigates nowhere
      fireEvent.click(link, { ctrlKey: true });
      expect(seek).toHaveBeenCalledTimes(1);
    } finally {
      detach();
    }
  });
});
