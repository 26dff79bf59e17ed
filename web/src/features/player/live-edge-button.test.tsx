import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LiveEdgeToggle } from './live-edge-button';

afterEach(cleanup);

describe('LiveEdgeToggle', () => {
  it('is lit at the live edge', () => {
    render(<LiveEdgeToggle atEdge onJump={() => {}} />);
    const button = screen.getByRole('button', { name: 'Live: playing the newest' });
    expect(button.textContent).toBe('LIVE');
    expect(button.getAttribute('aria-pressed')).toBe('true');
    expect(button.hasAttribute('data-edge')).toBe(true);
  });

  it('is dim behind the edge and jumps to it when pressed', () => {
    const onJump = vi.fn();
    render(<LiveEdgeToggle atEdge={false} onJump={onJump} />);
    const button = screen.getByRole('button', { name: 'Jump to live' });
    expect(button.getAttribute('aria-pressed')).toBe('false');
    expect(button.hasAttribute('data-edge')).toBe(false);
    fireEvent.click(button);
    expect(onJump).toHaveBeenCalledOnce();
  });
});
