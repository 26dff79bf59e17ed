import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { fakeApi, renderWithQueries } from '@/test/fake-api';
import { StreamSetup } from './stream-setup';

const KEY = 'k3yK3yk3yK3yk3yK3yk3yK3yk3yK3y12';

describe('StreamSetup', () => {
  it('hides the stream key as dots until Show is pressed', () => {
    fakeApi(() => null);
    renderWithQueries(<StreamSetup videoId="vid0000001" rtmp="rtmp://video.example.com:1935/live" streamKey={KEY} notify={() => {}} />);
    const key = screen.getByLabelText('Stream key') as HTMLInputElement;
    expect(key.type).toBe('password');
    expect(key.value).toBe(KEY);
    fireEvent.click(screen.getByRole('button', { name: 'Show' }));
    expect(key.type).toBe('text');
    fireEvent.click(screen.getByRole('button', { name: 'Hide' }));
    expect(key.type).toBe('password');
    expect((screen.getByLabelText('Server URL') as HTMLInputElement).value).toBe('rtmp://video.example.com:1935/live');
  });

  it('copies the key with a toast', async () => {
    fakeApi(() => null);
    const writeText = vi.fn(() => Promise.resolve());
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    const notify = vi.fn();
    renderWithQueries(<StreamSetup videoId="vid0000001" rtmp="rtmp://h/live" streamKey={KEY} notify={notify} />);
    fireEvent.click(screen.getByRole('button', { name: 'Copy the stream key' }));
    await waitFor(() => expect(notify).toHaveBeenCalledWith('Stream key copied!', 'success'));
    expect(writeText).toHaveBeenCalledWith(KEY);
  });

  it('regenerates the key only after confirming', async () => {
    const calls = fakeApi(() => ({ streamKey: 'n3wn3wn3wn3wn3wn3wn3wn3wn3wn3w12' }));
    renderWithQueries(<StreamSetup videoId="vid0000001" rtmp="rtmp://h/live" streamKey={KEY} notify={() => {}} />);
    fireEvent.click(screen.getByRole('button', { name: 'Regenerate' }));
    expect(screen.getByText(/The current key stops working at once/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(calls).toEqual([]);
    fireEvent.click(screen.getByRole('button', { name: 'Regenerate' }));
    const dialogButtons = screen.getAllByRole('button', { name: 'Regenerate' });
    fireEvent.click(dialogButtons[dialogButtons.length - 1]!);
    await waitFor(() => expect(calls).toEqual(['POST /api/v1/live/vid0000001/key']));
  });
});
