import type { LiveDetail } from '@reelhouse/contract';
import { useQuery } from '@tanstack/react-query';
import { i18n } from '@/i18n/i18n';
import { API_BASE, api } from '@/lib/api-client';

/**
 * What to record, best first: H.264 is passed through by the server as it is; anything else is
 * re-encoded there, which costs the site CPU. Audio is made AAC on the server either way.
 */
export const RECORDER_TYPES = [
  'video/mp4;codecs=avc1,mp4a',
  'video/webm;codecs=h264,opus',
  'video/webm;codecs=vp8,opus',
  'video/webm;codecs=vp9,opus',
  'video/webm',
] as const;

/** The first recording type this browser can make, or null when it can make none of them. */
export function pickRecorderType(isTypeSupported: (type: string) => boolean): string | null {
  return RECORDER_TYPES.find((t) => isTypeSupported(t)) ?? null;
}

/** The WebSocket address a live is published to from this page (the API's own origin, ws: or wss:). */
export function publishUrl(videoId: string, type: string, pageUrl: string): string {
  const url = new URL(`${API_BASE}/live/${encodeURIComponent(videoId)}/publish`, pageUrl);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  url.searchParams.set('type', type);
  return url.toString();
}

/** What the page says when the site closes the socket: its reason when it gave one. */
export function closeMessage(code: number, reason: string): string {
  if (reason) return reason;
  if (code === 1006) return i18n.t('livePublish:connectionLost');
  return i18n.t('livePublish:publishingStopped');
}

/** Milliseconds as m:ss, or h:mm:ss past the hour. */
export function formatElapsed(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

/** The live as its owner sees it: whether the browser can publish, and whether it has ended. */
export function useLiveForPublishing(videoId: string) {
  return useQuery({
    queryKey: ['live-publish', videoId],
    queryFn: ({ signal }) => api.get<LiveDetail>(`/live/${videoId}`, undefined, signal),
  });
}
