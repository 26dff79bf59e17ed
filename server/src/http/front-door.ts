import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { FastifyServerFactory } from 'fastify';

/**
 * Looks at a request before Fastify does. Returns true when it has taken the request: it then either
 * answers it or hands it on with `passOn`, once. False leaves it to Fastify at once.
 */
export type EarlyResponder = (req: IncomingMessage, res: ServerResponse, passOn: () => void) => boolean;

/**
 * The HTTP server in front of the app. What can be answered without routing, hooks and request
 * objects (a signed-out read whose answer is kept) is answered here, at a fraction of the cost;
 * everything else goes to Fastify as if this were not here. The server gets the timeouts Fastify
 * gives the servers it makes itself.
 */
export class FrontDoor {
  private responder: EarlyResponder | null = null;

  answerEarlyWith(responder: EarlyResponder) {
    this.responder = responder;
  }

  readonly serverFactory: FastifyServerFactory = (handler, options) => {
    const server = http.createServer((options.http ?? {}) as http.ServerOptions, (req, res) => {
      const responder = this.responder;
      if (responder === null) return handler(req, res);
      let taken = false;
      try {
        taken = responder(req, res, () => handler(req, res));
      } catch {
        taken = res.headersSent;
      }
      if (!taken) handler(req, res);
    });
    // As Fastify sets up a server of its own making.
    server.keepAliveTimeout = options.keepAliveTimeout as number;
    server.requestTimeout = options.requestTimeout as number;
    server.setTimeout(options.connectionTimeout as number);
    if ((options.maxRequestsPerSocket as number) > 0) server.maxRequestsPerSocket = options.maxRequestsPerSocket as number;
    return server;
  };
}
