/** A server-sent event as a test reads it. */
export interface SseEvent {
  event: string;
  data: any;
}

export interface SseClient {
  status: number;
  headers: Headers;
  /** The next event of that name (earlier ones of other names are skipped), or a timeout error. */
  next(event: string, timeoutMs?: number): Promise<SseEvent>;
  /** Every comment line seen so far (heartbeats). */
  comments: string[];
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  close(): void;
}

/** Opens an event stream with fetch and parses it as it arrives. */
export async function openSse(url: string, headers: Record<string, string> = {}): Promise<SseClient> {
  const abort = new AbortController();
  const res = await fetch(url, { headers: { accept: 'text/event-stream', ...headers }, signal: abort.signal });
  const queue: SseEvent[] = [];
  const comments: string[] = [];
  const waiters = new Set<() => void>();
  let endedResolve: () => void = () => undefined;
  const ended = new Promise<void>((r) => (endedResolve = r));
  const wake = () => {
    for (const w of [...waiters]) w();
  };
  void (async () => {
    if (!res.body) return endedResolve();
    const decoder = new TextDecoder();
    let buf = '';
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        buf += decoder.decode(chunk, { stream: true });
        let i: number;
        while ((i = buf.indexOf('\n\n')) >= 0) {
          const block = buf.slice(0, i);
          buf = buf.slice(i + 2);
          let event = 'message';
          const data: string[] = [];
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) comments.push(line.slice(1).trim());
            else if (line.startsWith('event: ')) event = line.slice(7);
            else if (line.startsWith('data: ')) data.push(line.slice(6));
          }
          if (data.length) queue.push({ event, data: JSON.parse(data.join('\n')) });
          wake();
        }
      }
    } catch {
      /* aborted */
    }
    endedResolve();
    wake();
  })();
  return {
    status: res.status,
    headers: res.headers,
    comments,
    ended,
    next(event, timeoutMs = 2000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const i = queue.findIndex((e) => e.event === event);
          if (i < 0) return;
          const [found] = queue.splice(0, i + 1).slice(-1);
          done();
          resolve(found!);
        };
        const timer = setTimeout(() => {
          done();
          reject(new Error(`no ${event} event within ${timeoutMs} ms`));
        }, timeoutMs);
        const done = () => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
        check();
      });
    },
    close: () => abort.abort(),
  };
}
