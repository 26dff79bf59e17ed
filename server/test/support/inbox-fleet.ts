import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { type CryptographicKey, getDocumentLoader, type KeyCache, verifyRequest } from '@fedify/fedify';

/** One activity a server of the fleet took: which server, at which inbox, the JSON, and when. */
export interface ReceivedActivity {
  server: number;
  inbox: string;
  activity: { id?: string; type?: string; actor?: string; object?: unknown };
  at: number;
}

export interface InboxFleet {
  origin: string;
  /** Server n's shared inbox, where a site with followers there delivers once for all of them. */
  sharedInbox(server: number): string;
  /** Follower f of server n: its actor address and its own inbox. */
  follower(server: number, f: number): { actorId: string; inbox: string };
  received: ReceivedActivity[];
  /** Deliveries refused for a signature that did not verify. */
  refused: number;
  close(): Promise<void>;
}

/**
 * The inboxes of many remote servers (each could be Mastodon, PeerTube or another site), served on
 * one loopback listener: server n's inboxes live under /s{n}/. Each POST is checked as a remote server checks it, with the
 * library's HTTP Signatures verification fetching the sender's key (once per key: a shared cache),
 * and answered 202; a delivery whose signature fails is answered 401 and counted, not kept.
 */
export async function startInboxFleet(opts: { host?: string } = {}): Promise<InboxFleet> {
  const host = opts.host ?? '127.0.0.1';
  const documentLoader = getDocumentLoader({ allowPrivateAddress: true });
  const keys = new Map<string, CryptographicKey | null>();
  const keyCache: KeyCache = {
    get: async (id) => keys.get(id.href) ?? undefined,
    set: async (id, key) => void keys.set(id.href, key),
  };
  const received: ReceivedActivity[] = [];
  const fleet = { refused: 0 };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const match = /^\/s(\d+)\/(?:inbox|users\/\d+\/inbox)$/.exec(req.url ?? '');
        if (req.method !== 'POST' || !match) {
          res.writeHead(404).end();
          return;
        }
        const body = Buffer.concat(chunks);
        const url = `http://${req.headers.host}${req.url}`;
        const headers = new Headers();
        for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string') headers.set(name, value);
        const request = new Request(url, { method: 'POST', headers, body });
        const key = await verifyRequest(request, { documentLoader, contextLoader: documentLoader, keyCache }).catch(() => null);
        if (!key) {
          fleet.refused++;
          res.writeHead(401).end();
          return;
        }
        received.push({ server: Number(match[1]), inbox: url, activity: JSON.parse(body.toString('utf8')), at: Date.now() });
        res.writeHead(202).end();
      })().catch(() => res.writeHead(500).end());
    });
  });
  // Thousands of deliveries arrive at once: connections are kept for the next.
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const origin = `http://${host}:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    sharedInbox: (n) => `${origin}/s${n}/inbox`,
    follower: (n, f) => ({ actorId: `${origin}/s${n}/users/${f}`, inbox: `${origin}/s${n}/users/${f}/inbox` }),
    received,
    get refused() {
      return fleet.refused;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
