import fs from 'node:fs/promises';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type SignedIn, type TestApp } from '../support/test-app.js';

/**
 * A client that starts an upload and then goes silent (or trickles nothing, slow-loris style) is
 * cut off after IDLE_TIMEOUT_SECONDS, and its half-received upload does not stay on disk.
 */
let t: TestApp;
let port: number;
let user: SignedIn;
beforeAll(async () => {
  t = await createTestApp({ env: { IDLE_TIMEOUT_SECONDS: '2' } });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as AddressInfo).port;
  user = await t.signUp();
});
afterAll(async () => {
  await t?.close();
});

const uploads = async () => (await fs.readdir(t.ctx.tmpDir).catch(() => [])).filter((f) => f.startsWith('upload-'));

describe('a silent connection', () => {
  it('mid-upload is closed after the idle timeout and its temporary file removed', async () => {
    const socket = net.connect(port, '127.0.0.1');
    socket.on('error', () => {});
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    const closed = new Promise<number>((resolve) => socket.once('close', () => resolve(Date.now())));
    const head = '--b\r\nContent-Disposition: form-data; name="videoFile"; filename="v.mp4"\r\nContent-Type: video/mp4\r\n\r\n';
    socket.write(
      `POST /api/v1/videos/ HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${user.accessToken}\r\n` +
        `Content-Type: multipart/form-data; boundary=b\r\nContent-Length: 10000000\r\n\r\n${head}`,
    );
    socket.write(Buffer.alloc(256 * 1024, 1));
    const sentAt = Date.now();
    const end = Date.now() + 10_000;
    while (!(await uploads()).length && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
    expect((await uploads()).length).toBe(1);

    const closedAt = await closed;
    expect(closedAt - sentAt).toBeGreaterThanOrEqual(1500);
    expect(closedAt - sentAt).toBeLessThan(15_000);
    const gone = Date.now() + 5000;
    while ((await uploads()).length && Date.now() < gone) await new Promise((r) => setTimeout(r, 50));
    expect(await uploads()).toEqual([]);
    expect((await t.call({ method: 'GET', url: '/api/v1/healthcheck' })).statusCode).toBe(200);
  }, 60_000);

  it('that never finishes its headers is closed too', async () => {
    const socket = net.connect(port, '127.0.0.1');
    socket.on('error', () => {});
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    const started = Date.now();
    const closed = new Promise<number>((resolve) => socket.once('close', () => resolve(Date.now())));
    socket.write('GET /api/v1/videos/ HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ');
    expect((await closed) - started).toBeLessThan(15_000);
  }, 60_000);
});
