import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { answer, fakeApi, renderWithQueries } from '@/test/fake-api';
import { closeMessage, formatElapsed, pickRecorderType, publishUrl } from '../api/publish-stream';
import { BrowserPublisher } from './browser-publisher';

// The browser's own capture, recording and socket stand-ins: jsdom has none of them.
class FakeTrack {
  stopped = false;
  private listeners: (() => void)[] = [];
  constructor(readonly kind: 'video' | 'audio') {}
  stop() {
    this.stopped = true;
  }
  addEventListener(_: string, l: () => void) {
    this.listeners.push(l);
  }
  end() {
    this.listeners.forEach((l) => l());
  }
}
class FakeStream {
  readonly tracks = [new FakeTrack('video'), new FakeTrack('audio')];
  getTracks = () => this.tracks;
  getVideoTracks = () => this.tracks.filter((t) => t.kind === 'video');
  getAudioTracks = () => this.tracks.filter((t) => t.kind === 'audio');
  addTrack = (t: FakeTrack) => this.tracks.push(t);
}
class FakeRecorder {
  static supported = ['video/webm;codecs=h264,opus', 'video/webm;codecs=vp8,opus'];
  static last: FakeRecorder | null = null;
  static isTypeSupported = (t: string) => FakeRecorder.supported.includes(t);
  state: 'inactive' | 'recording' = 'inactive';
  timeslice = 0;
  ondataavailable: ((e: { data: Blob }) => void) | null = null;
  constructor(
    readonly stream: FakeStream,
    readonly options: { mimeType: string },
  ) {
    FakeRecorder.last = this;
  }
  start(timeslice: number) {
    this.state = 'recording';
    this.timeslice = timeslice;
  }
  stop() {
    this.state = 'inactive';
  }
}
class FakeSocket {
  static CONNECTING = 0;
  static OPEN = 1;
  static CLOSING = 2;
  static CLOSED = 3;
  static last: FakeSocket | null = null;
  readyState = FakeSocket.CONNECTING;
  sent: unknown[] = [];
  closedWith: [number, string] | null = null;
  onmessage: ((e: { data: unknown }) => void) | null = null;
  onclose: ((e: { code: number; reason: string }) => void) | null = null;
  constructor(readonly url: string) {
    FakeSocket.last = this;
  }
  send(data: unknown) {
    this.sent.push(data);
  }
  close(code: number, reason: string) {
    this.closedWith = [code, reason];
    this.readyState = FakeSocket.CLOSED;
  }
  /** The site accepts the socket and says it is publishing. */
  accept() {
    this.readyState = FakeSocket.OPEN;
    this.onmessage?.({ data: JSON.stringify({ state: 'publishing' }) });
  }
  /** The site closes the socket. */
  serverClose(code: number, reason: string) {
    this.readyState = FakeSocket.CLOSED;
    this.onclose?.({ code, reason });
  }
}

const detail = (over: Record<string, unknown> = {}) => ({
  videoId: 'vid123456',
  status: 'upcoming',
  scheduledStart: null,
  startedAt: null,
  endedAt: null,
  viewers: 0,
  permanent: false,
  saveReplay: true,
  streamKey: 'k',
  ingest: { rtmp: 'rtmp://x/live', browser: true },
  health: { videoCodec: null, audioCodec: null, width: null, height: null, frameRate: null, bitrate: null, lastDataAt: null },
  chat: { slowModeSeconds: 0, open: true },
  ...over,
});

function browser(opts: { camera?: () => Promise<FakeStream> } = {}) {
  const camera = vi.fn(opts.camera ?? (async () => new FakeStream()));
  const screenShare = vi.fn(async () => new FakeStream());
  vi.stubGlobal('MediaRecorder', FakeRecorder);
  vi.stubGlobal('WebSocket', FakeSocket);
  vi.stubGlobal('navigator', { ...navigator, mediaDevices: { getUserMedia: camera, getDisplayMedia: screenShare } });
  FakeRecorder.last = null;
  FakeSocket.last = null;
  return { camera, screenShare };
}

const status = () => screen.getByTestId('publish-status').textContent;

describe('BrowserPublisher', () => {
  it('publishes the camera: connecting, then live with the elapsed time and each recorded piece sent; Stop ends it all', async () => {
    fakeApi(() => detail());
    const { camera } = browser();
    renderWithQueries(<BrowserPublisher videoId="vid123456" />);
    await screen.findByRole('button', { name: 'Start publishing' });
    expect(status()).toBe('Not publishing');

    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Start publishing' })));
    expect(camera).toHaveBeenCalled();
    expect(status()).toBe('Connecting…');
    const socket = FakeSocket.last!;
    expect(socket.url).toBe('ws://localhost:3000/api/v1/live/vid123456/publish?type=video%2Fwebm%3Bcodecs%3Dh264%2Copus');
    expect(FakeRecorder.last).toBeNull();

    act(() => socket.accept());
    expect(status()).toBe('Live');
    expect(screen.getByTestId('publish-elapsed').textContent).toBe('0:00');
    const recorder = FakeRecorder.last!;
    expect(recorder.options.mimeType).toBe('video/webm;codecs=h264,opus');
    expect(recorder.timeslice).toBe(300);
    const piece = new Blob(['x']);
    recorder.ondataavailable!({ data: piece });
    recorder.ondataavailable!({ data: new Blob([]) });
    expect(socket.sent).toEqual([piece]);
    // The source cannot change while publishing.
    expect(screen.getByRole('radio', { name: 'Screen' })).toHaveProperty('disabled', true);

    const stream = recorder.stream;
    fireEvent.click(screen.getByRole('button', { name: 'Stop publishing' }));
    expect(status()).toBe('Stopped');
    expect(recorder.state).toBe('inactive');
    expect(stream.tracks.every((t) => t.stopped)).toBe(true);
    expect(socket.closedWith).toEqual([1000, 'Stopped']);
    expect(screen.getByRole('button', { name: 'Start publishing' })).toBeDefined();
  });

  it('shows the reason the site gives when it closes the socket, and lets go of the camera', async () => {
    fakeApi(() => detail());
    browser();
    renderWithQueries(<BrowserPublisher videoId="vid123456" />);
    await act(async () => fireEvent.click(await screen.findByRole('button', { name: 'Start publishing' })));
    const socket = FakeSocket.last!;
    act(() => socket.serverClose(4409, 'This live is already being published from a browser'));
    expect(status()).toBe('This live is already being published from a browser');
    expect(screen.getByRole('button', { name: 'Start publishing' })).toBeDefined();
  });

  it('shares a screen when chosen; ending the share in the browser stops publishing', async () => {
    fakeApi(() => detail());
    const { camera, screenShare } = browser();
    renderWithQueries(<BrowserPublisher videoId="vid123456" />);
    fireEvent.click(await screen.findByRole('radio', { name: 'Screen' }));
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Start publishing' })));
    expect(screenShare).toHaveBeenCalled();
    expect(camera).not.toHaveBeenCalled();
    act(() => FakeSocket.last!.accept());
    const stream = FakeRecorder.last!.stream;
    act(() => stream.tracks[0]!.end());
    expect(status()).toBe('Stopped');
  });

  it('says why it cannot start: the camera refused, or no recording type', async () => {
    fakeApi(() => detail());
    browser({
      camera: async () => {
        throw new Error('Permission denied');
      },
    });
    renderWithQueries(<BrowserPublisher videoId="vid123456" />);
    await act(async () => fireEvent.click(await screen.findByRole('button', { name: 'Start publishing' })));
    expect(status()).toBe('Permission denied');
    expect(FakeSocket.last).toBeNull();

    FakeRecorder.supported = [];
    try {
      await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Start publishing' })));
      expect(status()).toBe('This browser cannot record video to publish');
    } finally {
      FakeRecorder.supported = ['video/webm;codecs=h264,opus', 'video/webm;codecs=vp8,opus'];
    }
  });

  it('offers nothing to start when the site has no ingest, the live has ended, or the live is not the viewer’s', async () => {
    browser();
    fakeApi(() => detail({ ingest: { rtmp: 'rtmp://x/live', browser: false } }));
    const first = renderWithQueries(<BrowserPublisher videoId="vid123456" />);
    expect(await screen.findByText('Live ingest is off on this site')).toBeDefined();
    expect(screen.queryByRole('button', { name: 'Start publishing' })).toBeNull();
    first.unmount();

    fakeApi(() => detail({ status: 'ended' }));
    const second = renderWithQueries(<BrowserPublisher videoId="vid123456" />);
    expect(await screen.findByText('This live has ended')).toBeDefined();
    second.unmount();

    fakeApi(() => answer(null, 403, 'Only the owner of this live can manage it'));
    renderWithQueries(<BrowserPublisher videoId="vid123456" />);
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('Only the owner of this live can manage it'));
  });
});

describe('publishing helpers', () => {
  it('picks the first recording type the browser makes', () => {
    expect(pickRecorderType((t) => t === 'video/webm;codecs=vp8,opus' || t === 'video/webm')).toBe('video/webm;codecs=vp8,opus');
    expect(pickRecorderType((t) => t.startsWith('video/mp4'))).toBe('video/mp4;codecs=avc1,mp4a');
    expect(pickRecorderType(() => false)).toBeNull();
  });

  it('addresses the socket on the page’s origin, wss: under HTTPS', () => {
    expect(publishUrl('abc', 'video/webm', 'https://video.example.com/me/studio')).toBe('wss://video.example.com/api/v1/live/abc/publish?type=video%2Fwebm');
    expect(publishUrl('abc', 'video/webm', 'http://localhost:7000/')).toBe('ws://localhost:7000/api/v1/live/abc/publish?type=video%2Fwebm');
  });

  it('words a close and the elapsed time', () => {
    expect(closeMessage(4403, 'Only the owner of this live can manage it')).toBe('Only the owner of this live can manage it');
    expect(closeMessage(1006, '')).toBe('The connection to the site was lost');
    expect(closeMessage(1000, '')).toBe('Publishing stopped');
    expect(formatElapsed(0)).toBe('0:00');
    expect(formatElapsed(65_400)).toBe('1:05');
    expect(formatElapsed(3_725_000)).toBe('1:02:05');
  });
});
