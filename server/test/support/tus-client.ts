import http from 'node:http';
import type { SignedIn } from './test-app.js';

/**
 * A bare tus 1.0.0 client over real HTTP, so tests can cut a PATCH's connection mid-body the way a
 * bad network does, then ask the server where it stopped.
 */
export interface TusResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export function tusRequest(
  base: string,
  opts: { method: string; path: string; as?: SignedIn; headers?: Record<string, string>; body?: Buffer; cutAfter?: number },
): Promise<TusResponse> {
  const url = new URL(opts.path, base);
  const headers: Record<string, string> = { 'tus-resumable': '1.0.0', ...opts.headers };
  if (opts.as) headers.authorization = `Bearer ${opts.as.accessToken}`;
  if (opts.body) headers['content-length'] = String(opts.body.length);
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: opts.method, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      res.on('error', reject);
    });
    if (opts.cutAfter !== undefined && opts.body) {
      // Send part of the body, then drop the connection as a failing network would.
      req.on('error', () => resolve({ status: 0, headers: {}, body: '' }));
      req.write(opts.body.subarray(0, opts.cutAfter), () => setTimeout(() => req.destroy(), 300));
      return;
    }
    req.on('error', reject);
    req.end(opts.body);
  });
}

export const tusCreate = (base: string, as: SignedIn | undefined, size: number, filename = 'clip.mp4', extra: Record<string, string> = {}) =>
  tusRequest(base, {
    method: 'POST',
    path: '/api/v1/uploads',
    as,
    headers: { 'upload-length': String(size), 'upload-metadata': `filename ${Buffer.from(filename).toString('base64')}`, ...extra },
  });

export const tusPatch = (base: string, as: SignedIn | undefined, location: string, offset: number, body: Buffer, cutAfter?: number) =>
  tusRequest(base, {
    method: 'PATCH',
    path: location,
    as,
    body,
    cutAfter,
    headers: { 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' },
  });

/** The server's offset for an upload, waiting out the moment a cut PATCH still holds its lock. */
export async function tusOffset(base: string, as: SignedIn, location: string): Promise<number> {
  for (let i = 0; ; i++) {
    const res = await tusRequest(base, { method: 'HEAD', path: location, as });
    if (res.status === 200) return Number(res.headers['upload-offset']);
    if (i > 50) throw new Error(`HEAD ${location} answered ${res.status}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
