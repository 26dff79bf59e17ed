import { useEffect, useState } from 'react';

const PROBE_MS = 1000;

/**
 * Whether a live's master playlist can be fetched yet. A live goes on air as soon as an encoder is
 * admitted, a second or two before its first segments and master playlist are written; the player
 * starts once the playlist answers rather than failing on its first request.
 */
export function usePlaylistReady(url: string | null): boolean {
  const [readyUrl, setReadyUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!url) return;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const probe = () => {
      fetch(url, { cache: 'no-store' })
        .then((res) => {
          if (stopped) return;
          if (res.ok) setReadyUrl(url);
          else timer = setTimeout(probe, PROBE_MS);
        })
        .catch(() => {
          if (!stopped) timer = setTimeout(probe, PROBE_MS);
        });
    };
    probe();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [url]);
  return url !== null && readyUrl === url;
}
