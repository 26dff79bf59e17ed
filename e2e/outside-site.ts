import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Another site: a page on an origin of its own (another port of this machine), as a blog that
 * pastes an embed code would be.
 */
export async function outsideSite(html: string): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(html);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/blog-post.html`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
