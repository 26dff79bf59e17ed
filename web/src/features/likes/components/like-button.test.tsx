import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { flipLike } from '../api/optimistic-like';
import { LikeButton } from './like-button';

function deferred<T>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

afterEach(cleanup);

describe('flipLike', () => {
  it('flips the state and moves the count by one', () => {
    expect(flipLike({ liked: false, count: 4 })).toEqual({ liked: true, count: 5 });
    expect(flipLike({ liked: true, count: 5 })).toEqual({ liked: false, count: 4 });
  });
});

describe('LikeButton', () => {
  const common = { contentType: 'video' as const, contentId: 'vid123456', signedIn: true, onSignedOut: () => {} };

  it('updates at once, then reverts and reports when the server fails', async () => {
    const call = deferred<{ liked: boolean; likesCount: number }>();
    const onError = vi.fn();
    render(<LikeButton {...common} liked={false} count={7} onError={onError} send={() => call.promise} />);
    const button = screen.getByRole('button', { name: 'Like' });
    fireEvent.click(button);
    expect(screen.getByRole('button', { name: 'Unlike' }).getAttribute('aria-pressed')).toBe('true');
    expect(screen.getByTestId('like-count').textContent).toBe('8');
    await act(async () => {
      call.reject(new Error('Server down'));
      await call.promise.catch(() => {});
    });
    expect(screen.getByRole('button', { name: 'Like' }).getAttribute('aria-pressed')).toBe('false');
    expect(screen.getByTestId('like-count').textContent).toBe('7');
    expect(onError).toHaveBeenCalledWith('Server down');
  });

  it('keeps the new state when the server agrees', async () => {
    const send = vi.fn(async () => ({ liked: false, likesCount: 2 }));
    render(<LikeButton {...common} liked={true} count={3} onError={() => {}} send={send} />);
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Unlike' }));
    });
    expect(send).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('button', { name: 'Like' })).toBeTruthy();
    expect(screen.getByTestId('like-count').textContent).toBe('2');
  });

  it('asks signed-out visitors to log in instead of calling the server', () => {
    const send = vi.fn();
    const onSignedOut = vi.fn();
    render(<LikeButton {...common} signedIn={false} onSignedOut={onSignedOut} liked={false} count={0} onError={() => {}} send={send} />);
    fireEvent.click(screen.getByRole('button', { name: 'Like' }));
    expect(onSignedOut).toHaveBeenCalled();
    expect(send).not.toHaveBeenCalled();
  });
});
