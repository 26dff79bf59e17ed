import * as tus from 'tus-js-client';
import { i18n } from '@/i18n/i18n';
import { API_BASE, ApiError, api } from './api-client';
import { UploadCancelledError, type UploadProgress } from './upload';

/**
 * 8 MiB pieces: each PATCH stays well under the body limits of common proxies, a dropped connection
 * costs at most one piece, and on S3 each piece is exactly one part of the multipart upload.
 */
export const CHUNK_BYTES = 8 * 1024 * 1024;
/** Retry a lost connection for about ten minutes before giving up. */
const RETRY_DELAYS = [0, 1000, 2000, 3000, 5000, 10_000, 10_000, 20_000, 30_000, 30_000, ...Array(16).fill(30_000)];
/** Speed is measured over the last few seconds, so a pause or a burst does not swing it for long. */
const SPEED_WINDOW_MS = 5000;

export interface ResumableProgress extends UploadProgress {
  /** Bytes per second over the last few seconds; null until there is enough to tell. */
  bytesPerSecond: number | null;
  secondsLeft: number | null;
  /** Where this upload picked up a previous attempt at the same file, if it did. */
  resumedFrom: number | null;
  /** The connection dropped and the upload is waiting to try again. */
  retrying: boolean;
}

export interface ResumableUpload {
  /** The upload's id once every byte is on the server. */
  done: Promise<string>;
  /** Stops sending and removes what the server has, as the person cancelled. */
  cancel(): void;
  /** Stops sending but keeps what the server has: choosing the same file again continues. */
  pause(): void;
}

/** Whether a failed request is worth another try: lost connections and server trouble, and an expired sign-in after a refresh. */
function shouldRetry(err: tus.DetailedError): boolean {
  const status = err.originalResponse?.getStatus() ?? 0;
  if (status === 401) {
    void api.refresh();
    return true;
  }
  return status === 0 || status === 409 || status === 423 || status >= 500;
}

/**
 * Uploads a file with the tus protocol to /api/v1/uploads. The browser remembers each upload by the
 * file's name, size and date (localStorage), so choosing the same file again after a reload, a
 * crash or a lost connection continues where the server stopped instead of starting over.
 */
export function startResumableUpload(file: File, onProgress: (p: ResumableProgress) => void): ResumableUpload {
  let resumedFrom: number | null = null;
  let retrying = false;
  let lastLoaded = 0;
  const samples: { at: number; bytes: number }[] = [];
  let upload: tus.Upload | null = null;
  let cancelled = false;
  let rejectDone: (err: Error) => void = () => undefined;

  const report = (loaded: number, total: number) => {
    lastLoaded = loaded;
    const now = performance.now();
    samples.push({ at: now, bytes: loaded });
    while (samples.length > 2 && now - samples[0]!.at > SPEED_WINDOW_MS) samples.shift();
    const first = samples[0]!;
    const span = (now - first.at) / 1000;
    const bytesPerSecond = span >= 0.5 && loaded > first.bytes ? (loaded - first.bytes) / span : null;
    onProgress({
      loaded,
      total,
      percent: total ? Math.floor((loaded / total) * 100) : 0,
      bytesPerSecond,
      secondsLeft: bytesPerSecond ? Math.ceil((total - loaded) / bytesPerSecond) : null,
      resumedFrom,
      retrying,
    });
  };

  const done = new Promise<string>((resolve, reject) => {
    rejectDone = reject;
    upload = new tus.Upload(file, {
      endpoint: `${API_BASE}/uploads`,
      chunkSize: CHUNK_BYTES,
      retryDelays: RETRY_DELAYS,
      metadata: { filename: file.name, filetype: file.type || 'video/mp4' },
      storeFingerprintForResuming: true,
      // Name, type and size, not the modification time: some file pickers do not keep it, and the
      // same file chosen again after a reload must be recognised.
      fingerprint: async (f) => ['reelhouse-tus', (f as File).name, (f as File).type, (f as File).size, `${API_BASE}/uploads`].join('|'),
      removeFingerprintOnSuccess: true,
      onBeforeRequest(req) {
        // The sign-in cookies go along (the API may be on another origin).
        (req.getUnderlyingObject() as XMLHttpRequest).withCredentials = true;
      },
      onShouldRetry(err) {
        const again = shouldRetry(err);
        if (again) {
          retrying = true;
          samples.length = 0;
          report(lastLoaded, file.size);
        }
        return again;
      },
      onAfterResponse(req, res) {
        retrying = false;
        // The HEAD of a resumed upload says where the server stopped.
        if (req.getMethod() === 'HEAD' && res.getStatus() === 200) {
          resumedFrom = Number(res.getHeader('Upload-Offset')) || 0;
          report(resumedFrom, file.size);
        }
      },
      onProgress: (sent, total) => {
        retrying = false;
        report(sent, total ?? file.size);
      },
      onSuccess: () => resolve(String(upload!.url).split('/').pop()!),
      onError: (err) => {
        if (cancelled) return;
        const status = (err as tus.DetailedError).originalResponse?.getStatus() ?? 0;
        let message = i18n.t('app:upload.connectionLost');
        const body = (err as tus.DetailedError).originalResponse?.getBody();
        try {
          if (body) message = (JSON.parse(body) as { message?: string }).message ?? message;
        } catch {
          /* a protocol answer in plain text */
        }
        reject(new ApiError(status, message));
      },
    });
    void upload.findPreviousUploads().then((previous) => {
      if (cancelled) return;
      const latest = previous.sort((a, b) => b.creationTime.localeCompare(a.creationTime))[0];
      if (latest) upload!.resumeFromPreviousUpload(latest);
      upload!.start();
    });
  });

  return {
    done,
    cancel() {
      cancelled = true;
      // Abort and terminate: the server removes the bytes, and the browser forgets the upload.
      void upload?.abort(true).catch(() => undefined);
      rejectDone(new UploadCancelledError());
    },
    pause() {
      cancelled = true;
      void upload?.abort(false).catch(() => undefined);
      rejectDone(new UploadCancelledError());
    },
  };
}
