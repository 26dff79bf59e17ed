/**
 * The commands' progress on stderr: on a terminal one line rewritten in place; otherwise (a log, a
 * pipe) a line when the phase changes and then every few seconds, so a log does not fill up.
 */
export function progressLine(stream: NodeJS.WriteStream = process.stderr, everyMs = 3000) {
  const tty = stream.isTTY === true;
  let last = 0;
  let lastPhase = '';
  let width = 0;
  return {
    update(phase: string, text: string) {
      const now = Date.now();
      if (tty) {
        const line = text ? `${phase}: ${text}` : phase;
        stream.write(`\r${line.padEnd(width)}`);
        width = line.length;
      } else if (phase !== lastPhase || now - last >= everyMs) {
        stream.write(`${text ? `${phase}: ${text}` : phase}\n`);
        last = now;
      }
      lastPhase = phase;
    },
    /** Ends the rewritten line, so what follows starts on its own. */
    done() {
      if (tty && width > 0) stream.write('\n');
      width = 0;
    },
  };
}

export function formatBytes(n: number): string {
  const units = ['bytes', 'KiB', 'MiB', 'GiB', 'TiB'];
  let i = 0;
  let v = n;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return i === 0 ? `${n} bytes` : `${v.toFixed(1)} ${units[i]}`;
}

export const formatSeconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
