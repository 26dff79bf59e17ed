import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, InlineMessage, Spinner } from '@/components/ui/primitives';
import { i18n } from '@/i18n/i18n';
import { errorMessage } from '@/lib/api-client';
import { cn } from '@/lib/cn';
import { closeMessage, formatElapsed, pickRecorderType, publishUrl, useLiveForPublishing } from '../api/publish-stream';

type Source = 'camera' | 'screen';
type Phase = { kind: 'idle' } | { kind: 'connecting' } | { kind: 'live'; since: number } | { kind: 'stopped' } | { kind: 'failed'; message: string };

/** Each recorded piece is sent at once: short enough that viewers stay a few seconds behind. */
const TIMESLICE_MS = 300;

interface Running {
  stream: MediaStream;
  socket: WebSocket;
  recorder: MediaRecorder | null;
}

async function capture(source: Source): Promise<MediaStream> {
  const devices = navigator.mediaDevices;
  if (!devices) throw new Error(i18n.t('livePublish:noCapture'));
  if (source === 'camera') return devices.getUserMedia({ video: { width: { ideal: 1280 }, height: { ideal: 720 } }, audio: true });
  const screen = await devices.getDisplayMedia({ video: true, audio: true });
  // A screen shared without its sound still takes the microphone, when there is one and it is allowed.
  if (screen.getAudioTracks().length === 0) {
    const mic = await devices.getUserMedia({ audio: true }).catch(() => null);
    mic?.getAudioTracks().forEach((t) => screen.addTrack(t));
  }
  return screen;
}

/**
 * Publishes a live from this browser: the camera and microphone, or a screen, recorded in short
 * pieces and sent over a WebSocket to the site, which passes them to its own live ingest. Shows
 * what is sent, where publishing stands, and for how long it has been live.
 */
export function BrowserPublisher({ videoId }: { videoId: string }) {
  const { t } = useTranslation('livePublish');
  const live = useLiveForPublishing(videoId);
  const [source, setSource] = useState<Source>('camera');
  const [phase, setPhase] = useState<Phase>({ kind: 'idle' });
  const [now, setNow] = useState(() => Date.now());
  const running = useRef<Running | null>(null);
  const preview = useRef<HTMLVideoElement | null>(null);

  const release = () => {
    const r = running.current;
    running.current = null;
    if (!r) return;
    if (r.recorder && r.recorder.state !== 'inactive') r.recorder.stop();
    r.stream.getTracks().forEach((t) => t.stop());
    if (r.socket.readyState === WebSocket.OPEN || r.socket.readyState === WebSocket.CONNECTING) r.socket.close(1000, 'Stopped');
    if (preview.current) preview.current.srcObject = null;
  };

  // Leaving the page stops publishing, as Stop does.
  useEffect(() => release, []);

  useEffect(() => {
    if (phase.kind !== 'live') return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [phase.kind]);

  const start = async () => {
    const type = typeof MediaRecorder === 'undefined' ? null : pickRecorderType((t) => MediaRecorder.isTypeSupported(t));
    if (!type) {
      setPhase({ kind: 'failed', message: t('noRecorder') });
      return;
    }
    setPhase({ kind: 'connecting' });
    let stream: MediaStream;
    try {
      stream = await capture(source);
    } catch (err) {
      setPhase({ kind: 'failed', message: errorMessage(err, t('captureFailed')) });
      return;
    }
    if (preview.current) preview.current.srcObject = stream;
    const socket = new WebSocket(publishUrl(videoId, type, window.location.href));
    const r: Running = { stream, socket, recorder: null };
    running.current = r;
    socket.onmessage = (event) => {
      if (typeof event.data !== 'string' || r.recorder) return;
      const message = JSON.parse(event.data) as { state?: string };
      if (message.state !== 'publishing') return;
      const options = { mimeType: type, videoBitsPerSecond: 2_500_000, audioBitsPerSecond: 128_000, videoKeyFrameIntervalDuration: 1000 };
      const recorder = new MediaRecorder(stream, options as MediaRecorderOptions);
      recorder.ondataavailable = (e) => {
        if (e.data.size > 0 && socket.readyState === WebSocket.OPEN) socket.send(e.data);
      };
      recorder.start(TIMESLICE_MS);
      r.recorder = recorder;
      setNow(Date.now());
      setPhase({ kind: 'live', since: Date.now() });
    };
    socket.onclose = (event) => {
      if (running.current !== r) return;
      release();
      setPhase({ kind: 'failed', message: closeMessage(event.code, event.reason) });
    };
    // Sharing a screen can be ended from the browser's own bar: that is a stop too.
    stream.getVideoTracks()[0]?.addEventListener('ended', () => {
      if (running.current !== r) return;
      release();
      setPhase({ kind: 'stopped' });
    });
  };

  const stop = () => {
    release();
    setPhase({ kind: 'stopped' });
  };

  if (live.isPending) return <Spinner label={t('loading')} />;
  if (live.isError) return <InlineMessage>{errorMessage(live.error)}</InlineMessage>;
  const detail = live.data;
  const unavailable = !detail.ingest.browser ? t('ingestOff') : detail.status === 'ended' ? t('ended') : null;
  const busy = phase.kind === 'connecting' || phase.kind === 'live';
  const status =
    phase.kind === 'connecting'
      ? t('status.connecting')
      : phase.kind === 'live'
        ? t('status.live')
        : phase.kind === 'stopped'
          ? t('status.stopped')
          : phase.kind === 'failed'
            ? phase.message
            : t('status.idle');

  return (
    <section aria-label={t('label')} className="space-y-3">
      <div className="relative aspect-video w-full max-w-2xl overflow-hidden rounded-xl bg-neutral-900">
        {/* Muted: the preview of what is sent, without hearing oneself. */}
        <video ref={preview} data-testid="publish-preview" autoPlay muted playsInline className="h-full w-full object-contain" />
        {!busy && <p className="absolute inset-0 flex items-center justify-center p-4 text-center text-sm text-neutral-400">{t('previewHint')}</p>}
      </div>
      {unavailable ? (
        <InlineMessage>{unavailable}</InlineMessage>
      ) : (
        <>
          <fieldset className="flex flex-wrap gap-4 text-sm">
            <legend className="sr-only">{t('source')}</legend>
            <label className="flex items-center gap-2">
              <input type="radio" name="publish-source" checked={source === 'camera'} disabled={busy} onChange={() => setSource('camera')} />
              {t('camera')}
            </label>
            <label className="flex items-center gap-2">
              <input type="radio" name="publish-source" checked={source === 'screen'} disabled={busy} onChange={() => setSource('screen')} />
              {t('screen')}
            </label>
          </fieldset>
          <div className="flex flex-wrap items-center gap-3">
            {busy ? (
              <Button variant="danger" onClick={stop}>
                {t('stop')}
              </Button>
            ) : (
              <Button variant="primary" onClick={() => void start()}>
                {t('start')}
              </Button>
            )}
            {phase.kind === 'live' && <span aria-hidden className="h-2.5 w-2.5 animate-pulse rounded-full bg-rose-600" />}
            <p
              role="status"
              data-testid="publish-status"
              className={cn(
                'text-sm font-medium',
                phase.kind === 'live' ? 'text-rose-600' : phase.kind === 'failed' ? 'text-red-700 dark:text-red-300' : 'text-neutral-600 dark:text-neutral-300',
              )}
            >
              {status}
            </p>
            {phase.kind === 'live' && (
              <span data-testid="publish-elapsed" className="font-mono text-sm tabular-nums text-neutral-700 dark:text-neutral-200">
                {formatElapsed(now - phase.since)}
              </span>
            )}
          </div>
        </>
      )}
    </section>
  );
}
