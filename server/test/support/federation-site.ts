import net from 'node:net';
import type { FederationSite } from '../../src/composition/federation.js';
import { createTestApp, type TestApp } from './test-app.js';

/** A port free on one loopback address (127.0.0.2, 127.0.0.3...), where a test's second site listens. */
export async function loopbackPort(host: string): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Polls until the probe answers something truthy (what arrived at another site), or fails after the timeout. */
export async function waitFor<T>(
  what: string,
  probe: () => T | null | undefined | false | Promise<T | null | undefined | false>,
  timeoutMs = 20_000,
): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const got = await probe();
    if (got) return got;
    if (Date.now() > end) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export interface Site {
  t: TestApp;
  origin: string;
  host: string;
  federation: FederationSite;
}

/** A whole site listening on its own loopback address, with its own data dir and database, running its jobs. */
export async function startSite(address: string, allowPrivate = true): Promise<Site> {
  const port = await loopbackPort(address);
  const origin = `http://${address}:${port}`;
  const t = await createTestApp({ env: { PUBLIC_URL: origin, FEDERATION_ALLOW_PRIVATE_ADDRESSES: String(allowPrivate) }, serveSourceAsIs: false });
  await t.app.listen({ host: address, port });
  return { t, origin, host: `${address}:${port}`, federation: t.services.federation! };
}
