import type { IncomingMessage } from 'node:http';

/** How much of a refused request's body is read and dropped so that its client hears the answer. */
export const DRAIN_MAX_BYTES = 64 * 1024 * 1024;
export const DRAIN_MAX_MS = 10_000;

/**
 * Reads and drops what is left of a request body, up to a bound, before the request is answered.
 *
 * A request refused part-way through its body (too many fields, a file field repeated, a part the
 * server will not take) is answered and its connection closed. Closing while the client still
 * writes resets the connection, and most clients (Node's fetch among them) then report the failed
 * write (EPIPE) instead of the answer. Reading the rest first lets them finish sending and read the
 * answer. The bound keeps a client that would send gigabytes from holding the server: past it the
 * connection is closed anyway. Answers true when the whole body was read.
 */
export function dropUnreadBody(raw: IncomingMessage, maxBytes = DRAIN_MAX_BYTES, maxMs = DRAIN_MAX_MS): Promise<boolean> {
  if (raw.complete || raw.destroyed || raw.readableEnded) return Promise.resolve(true);
  return new Promise((resolve) => {
    let read = 0;
    const finish = (whole: boolean) => {
      clearTimeout(timer);
      raw.off('data', onData);
      raw.off('end', onEnd);
      raw.off('close', onClose);
      resolve(whole);
    };
    const onData = (chunk: Buffer) => {
      read += chunk.length;
      if (read > maxBytes) finish(false);
    };
    const onEnd = () => finish(true);
    const onClose = () => finish(raw.complete);
    const timer = setTimeout(() => finish(false), maxMs);
    timer.unref();
    // Whatever was reading the body (the multipart parser) stops reading it.
    raw.unpipe();
    raw.on('data', onData);
    raw.on('end', onEnd);
    raw.on('close', onClose);
    raw.resume();
  });
}
