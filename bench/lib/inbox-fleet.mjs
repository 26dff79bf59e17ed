/**
 * Many remote servers' inboxes on one loopback listener, run as a child process of a benchmark:
 * /s{n}/inbox is server n's shared inbox. Every delivery's signature is checked as a remote server
 * checks it (the library's verification, the sender's key fetched once and kept) and answered 202,
 * or 401 when it does not verify. Tells the parent its origin once listening, and its counts when
 * asked ('state'); 'reset' forgets them first.
 */
import http from 'node:http';
import { getDocumentLoader, verifyRequest } from '@fedify/fedify';

const documentLoader = getDocumentLoader({ allowPrivateAddress: true });
const keys = new Map();
const keyCache = { get: async (id) => keys.get(id.href), set: async (id, key) => void keys.set(id.href, key) };
const servers = new Set();
let deliveries = 0;
let refused = 0;
let lastAt = 0;

const server = http.createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', async () => {
    const m = /^\/s(\d+)\/inbox$/.exec(req.url ?? '');
    if (req.method !== 'POST' || !m) return res.writeHead(404).end();
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers.set(k, v);
    const request = new Request(`http://${req.headers.host}${req.url}`, { method: 'POST', headers, body: Buffer.concat(chunks) });
    const key = await verifyRequest(request, { documentLoader, contextLoader: documentLoader, keyCache }).catch(() => null);
    if (!key) {
      refused++;
      return res.writeHead(401).end();
    }
    deliveries++;
    servers.add(m[1]);
    lastAt = Date.now();
    res.writeHead(202).end();
  });
});
server.keepAliveTimeout = 30_000;
server.listen(0, '127.0.0.1', () => process.send({ origin: `http://127.0.0.1:${server.address().port}` }));
process.on('message', (what) => {
  if (what === 'reset') {
    servers.clear();
    deliveries = refused = lastAt = 0;
  }
  process.send({ servers: servers.size, deliveries, refused, lastAt });
});
process.on('SIGTERM', () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
