import type { Envelope } from '@reelhouse/contract';
import { i18n } from '@/i18n/i18n';
import { API_BASE, ApiError, api } from './api-client';

export interface UploadProgress {
  loaded: number;
  total: number;
  percent: number;
}

/** The person cancelled the upload (not a failure to report as one). */
export class UploadCancelledError extends ApiError {
  constructor() {
    super(0, i18n.t('app:upload.cancelled'));
    this.name = 'UploadCancelledError';
  }
}

function sendOnce(
  method: string,
  path: string,
  form: FormData,
  onProgress?: (p: UploadProgress) => void,
  signal?: AbortSignal,
): Promise<{ status: number; body: Envelope<unknown> | null }> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(new UploadCancelledError());
      return;
    }
    const xhr = new XMLHttpRequest();
    const onAbortSignal = () => xhr.abort();
    signal?.addEventListener('abort', onAbortSignal, { once: true });
    xhr.onloadend = () => signal?.removeEventListener('abort', onAbortSignal);
    xhr.open(method, API_BASE + path);
    xhr.withCredentials = true;
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable && onProgress) {
        onProgress({ loaded: e.loaded, total: e.total, percent: Math.round((e.loaded / e.total) * 100) });
      }
    };
    xhr.onload = () => {
      let body: Envelope<unknown> | null = null;
      try {
        body = JSON.parse(xhr.responseText) as Envelope<unknown>;
      } catch {
        body = null;
      }
      resolve({ status: xhr.status, body });
    };
    xhr.onerror = () => reject(new ApiError(0, i18n.t('app:upload.networkError')));
    xhr.onabort = () => reject(new UploadCancelledError());
    xhr.send(form);
  });
}

/** Multipart upload through XMLHttpRequest, the one browser API that reports upload progress.
 *  Aborting `signal` aborts the request and rejects with UploadCancelledError. */
export async function uploadWithProgress<T>(
  method: string,
  path: string,
  form: FormData,
  onProgress?: (p: UploadProgress) => void,
  signal?: AbortSignal,
): Promise<T> {
  let res = await sendOnce(method, path, form, onProgress, signal);
  if (res.status === 401 && (await api.refresh())) res = await sendOnce(method, path, form, onProgress, signal);
  if (res.status >= 400 || !res.body) {
    throw new ApiError(res.status, res.body?.message || i18n.t('app:upload.failed'), res.body?.data ?? null);
  }
  return res.body.data as T;
}
