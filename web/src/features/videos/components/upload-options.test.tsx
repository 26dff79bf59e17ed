import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ThumbnailChoice } from './thumbnail-choice';
import { VisibilityChoice } from './visibility-choice';

afterEach(cleanup);

describe('VisibilityChoice', () => {
  it('offers Public, Unlisted and Private, and a schedule only for a private video', () => {
    const onVisibility = vi.fn();
    const { rerender } = render(<VisibilityChoice visibility="public" onVisibility={onVisibility} schedule="" onSchedule={() => {}} />);
    expect(screen.getByRole('group', { name: 'Visibility' })).toBeTruthy();
    expect((screen.getByLabelText('Public') as HTMLInputElement).checked).toBe(true);
    expect(screen.queryByLabelText('Schedule (optional)')).toBeNull();
    fireEvent.click(screen.getByLabelText('Unlisted'));
    expect(onVisibility).toHaveBeenCalledWith('unlisted');

    const onSchedule = vi.fn();
    rerender(
      <VisibilityChoice visibility="private" onVisibility={onVisibility} schedule="" onSchedule={onSchedule} scheduleError="Schedule must be in the future" />,
    );
    const schedule = screen.getByLabelText('Schedule (optional)') as HTMLInputElement;
    expect(schedule.type).toBe('datetime-local');
    fireEvent.change(schedule, { target: { value: '2030-01-02T03:04' } });
    expect(onSchedule).toHaveBeenCalledWith('2030-01-02T03:04');
    expect(screen.getByText('Schedule must be in the future')).toBeTruthy();
  });
});

describe('ThumbnailChoice', () => {
  const props = {
    onSource: () => {},
    image: null,
    onImage: () => {},
    frameTime: 0,
    onFrameTime: () => {},
  };

  it('keeps the Thumbnail image input by default and switches to a frame scrubber', () => {
    const onSource = vi.fn();
    render(<ThumbnailChoice {...props} source="image" onSource={onSource} videoFile={null} />);
    expect(screen.getByLabelText('Thumbnail')).toBeTruthy();
    expect(screen.queryByLabelText('Frame time')).toBeNull();
    fireEvent.click(screen.getByLabelText('Pick a frame'));
    expect(onSource).toHaveBeenCalledWith('frame');
  });

  it('asks for a video first, then scrubs over the chosen local file', () => {
    URL.createObjectURL = vi.fn(() => 'blob:clip');
    URL.revokeObjectURL = vi.fn();
    const { rerender } = render(<ThumbnailChoice {...props} source="frame" videoFile={null} />);
    expect(screen.getByText('Choose a video first, then pick one of its frames.')).toBeTruthy();
    expect(screen.queryByLabelText('Thumbnail')).toBeNull();

    const onFrameTime = vi.fn();
    const clip = new File([new Uint8Array([0])], 'clip.mp4', { type: 'video/mp4' });
    rerender(<ThumbnailChoice {...props} source="frame" videoFile={clip} frameTime={0.5} onFrameTime={onFrameTime} />);
    const video = screen.getByTestId('frame-preview') as HTMLVideoElement;
    expect(video.getAttribute('src')).toBe('blob:clip');
    // The length comes from the file itself once the browser has read it.
    Object.defineProperty(video, 'duration', { value: 4, configurable: true });
    fireEvent.loadedMetadata(video);
    const slider = screen.getByLabelText('Frame time') as HTMLInputElement;
    expect(slider.max).toBe('3.95');
    fireEvent.change(slider, { target: { value: '2.5' } });
    expect(onFrameTime).toHaveBeenCalledWith(2.5);
    expect(screen.getByText('Frame at 0.50 s')).toBeTruthy();
  });
});
