import net from 'node:net';

export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** Milliseconds from the first byte sent to the whole answer read. */
  ms: number;
}

/**
 * Sends bytes exactly as given over a fresh TCP connection and reads one HTTP/1.1 answer, so that
 * what a script can send (bad request lines, huge headers, truncated bodies) really reaches Node's
 * parser. Rejects if no complete answer arrives within timeoutMs: a hung request is a failure.
 */
export function rawRequest(port: number, raw: Buffer | string, timeoutMs = 5000): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket = net.connect(port, '127.0.0.1');
    let data = Buffer.alloc(0);
    let done = false;
    const finish = (err: Error | null, answer?: RawAnswer) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      if (err) reject(err);
      else resolve(answer!);
    };
    const timer = setTimeout(() => finish(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
    const tryParse = (ended: boolean) => {
      const headEnd = data.indexOf('\r\n\r\n');
      if (headEnd < 0) {
        if (ended) finish(new Error(`connection closed without an answer (${data.length} bytes read)`));
        return;
      }
      const [statusLine, ...lines] = data.subarray(0, headEnd).toString('latin1').split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const i = line.indexOf(':');
        headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
      }
      const status = Number(statusLine!.split(' ')[1]);
      const body = data.subarray(headEnd + 4);
      if (headers['transfer-encoding'] === 'chunked') {
        const decoded = dechunk(body);
        if (decoded) return finish(null, { status, headers, body: decoded.toString('utf8'), ms: Date.now() - started });
        if (ended) finish(new Error('connection closed inside a chunked answer'));
        return;
      }
      const length = Number(headers['content-length'] ?? NaN);
      if (Number.isFinite(length) ? body.length >= length : ended) {
        finish(null, { status, headers, body: body.subarray(0, Number.isFinite(length) ? length : undefined).toString('utf8'), ms: Date.now() - started });
      } else if (ended) finish(new Error('connection closed inside the answer body'));
    };
    socket.on('data', (chunk) => {
      data = Buffer.concat([data, chunk]);
      tryParse(false);
    });
    socket.on('end', () => tryParse(true));
    socket.on('close', () => tryParse(true));
    // The server may close while we are still sending a body it has refused: read what it answered.
    socket.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'EPIPE' || err.code === 'ECONNRESET') tryParse(true);
      else finish(err);
    });
    socket.on('connect', () => socket.write(raw));
  });
}

function dechunk(body: Buffer): Buffer | null {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = body.indexOf('\r\n', at);
    if (lineEnd < 0) return null;
    const size = parseInt(body.subarray(at, lineEnd).toString('latin1'), 16);
    if (!Number.isFinite(size)) return null;
    if (size === 0) return Buffer.concat(parts);
    if (body.length < lineEnd + 2 + size) return null;
    parts.push(body.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
}

/** An HTTP/1.1 request as bytes: method, path, headers and an optional body (Content-Length added unless given). */
export function buildRequest(method: string, path: string, headers: Record<string, string>, body?: Buffer | string): Buffer {
  const bytes = body === undefined ? null : Buffer.isBuffer(body) ? body : Buffer.from(body, 'utf8');
  const all: Record<string, string> = { host: '127.0.0.1', connection: 'close', ...headers };
  if (bytes && !Object.keys(all).some((k) => k.toLowerCase() === 'content-length')) all['content-length'] = String(bytes.length);
  const head = `${method} ${path} HTTP/1.1\r\n${Object.entries(all)
    .map(([k, v]) => `${k}: ${v}`)
    .join('\r\n')}\r\n\r\n`;
  return bytes ? Buffer.concat([Buffer.from(head, 'latin1'), bytes]) : Buffer.from(head, 'latin1');
}
