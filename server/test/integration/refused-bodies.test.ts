import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, buildServer, freePort, MAIN_JS, type RunningProcess, startProcess, waitForHealthy } from '../support/processes.js';

/**
 * Multipart bodies the server refuses part-way through (too many fields, a file field repeated),
 * sent by Node's fetch to the built server in its own process, as a browser or script would. fetch
 * writes the whole body before it reads an answer: a server that closed the connection the moment
 * it refused left it with a failed write (EPIPE) and no answer. (In one process with the server the
 * race cannot happen, hence a separate process.)
 */

let dataDir = '';
let proc: RunningProcess;
let api: ApiClient;
beforeAll(async () => {
  await buildServer();
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'reelhouse-refused-'));
  const port = await freePort();
  proc = startProcess('api', MAIN_JS, { DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', DEMO_ACCOUNT: 'false', LOG_LEVEL: 'warn' });
  api = new ApiClient(`http://127.0.0.1:${port}`);
  await waitForHealthy(api, proc);
  await api.signUp();
}, 240_000);
afterAll(async () => {
  await proc?.stop();
  if (dataDir) await fs.rm(dataDir, { recursive: true, force: true });
});

const manyFields = (name: string) => () => {
  const form = new FormData();
  for (let i = 0; i < 1000; i++) form.append(name, 'x'.repeat(100));
  return form;
};
const repeatedFile = (name: string, type: string) => () => {
  const form = new FormData();
  form.append('title', 'A title');
  for (let i = 0; i < 50; i++) form.append(name, new Blob([Buffer.alloc(300_000, 1)], { type }), 'file.bin');
  return form;
};

describe('a multipart body refused part-way through', () => {
  it.each([
    ['POST', '/api/v1/videos/', 'a thousand text fields', manyFields('title'), 413, 'Too many fields in the multipart body'],
    ['POST', '/api/v1/videos/', 'videoFile fifty times', repeatedFile('videoFile', 'video/mp4'), 400, 'Only one videoFile file is allowed'],
    ['PATCH', '/api/v1/users/change-avatar', 'a thousand text fields', manyFields('fullName'), 413, 'Too many fields in the multipart body'],
    ['PATCH', '/api/v1/users/change-avatar', 'avatar fifty times', repeatedFile('avatar', 'image/png'), 400, 'Only one avatar file is allowed'],
    [
      'PATCH',
      '/api/v1/users/change-cover-image',
      'coverImage fifty times',
      repeatedFile('coverImage', 'image/png'),
      400,
      'Only one coverImage file is allowed',
    ],
  ])('%s %s with %s is answered, not cut off', async (method, url, _what, form, status, message) => {
    const res = await fetch(`${api.base}${url}`, {
      method,
      headers: { authorization: `Bearer ${api.accessToken}` },
      body: form(),
      signal: AbortSignal.timeout(15_000),
    });
    expect(res.status).toBe(status);
    expect(await res.json()).toEqual({ statusCode: status, data: null, message, success: false });
  });

  it('leaves the server answering and no temporary file behind', async () => {
    expect((await api.call('GET', '/api/v1/healthcheck')).status).toBe(200);
    const tmp = await fs.readdir(path.join(dataDir, 'tmp')).catch(() => []);
    expect(tmp.filter((n) => n.startsWith('upload-'))).toEqual([]);
  });
});
