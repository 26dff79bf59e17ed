/**
 * The ceiling a list benchmark is compared with: a bare Fastify server answering each path with the
 * very JSON body the real server gave for it, from memory. Run as its own process:
 *   node bench/lib/bare-server.mjs <port> <bodies.json>   (bodies.json: { "/path?query": "<body>" })
 */
import fs from 'node:fs';
import Fastify from 'fastify';

const [port, file] = process.argv.slice(2);
const bodies = JSON.parse(fs.readFileSync(file, 'utf8'));
const app = Fastify({ logger: false });
app.get('/*', (request, reply) => {
  const body = bodies[request.url];
  if (body === undefined) return reply.code(404).send({ statusCode: 404 });
  return reply.type('application/json; charset=utf-8').send(body);
});
await app.listen({ port: Number(port), host: '127.0.0.1' });
process.send?.('ready');
