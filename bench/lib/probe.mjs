/** What the load benchmarks share: the healthcheck prober, a process's CPU time and small statistics. */
import fs from 'node:fs';

/** Asks the healthcheck every 10 ms until stopped; its latencies tell whether the server stalls. */
export function probeHealthcheck(base) {
  const times = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const start = process.hrtime.bigint();
      try {
        await (await fetch(`${base}/api/v1/healthcheck`)).arrayBuffer();
      } catch {
        /* counted as slow below */
      }
      times.push(Number(process.hrtime.bigint() - start) / 1e6);
      await new Promise((r) => setTimeout(r, 10));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      const sorted = times.sort((a, b) => a - b);
      return { p99: sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))] ?? 0, samples: sorted.length };
    },
  };
}

export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

export function round(x) {
  return Math.round(x * 100) / 100;
}

/**
 * CPU time a process (all its threads) has used so far, in milliseconds, from /proc (Linux; 0
 * elsewhere). CPU per request is steadier than throughput on a shared machine: it does not count
 * the time the process waited for a core.
 */
export function cpuMsOf(pid) {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    // utime and stime, fields 14 and 15 of the whole line, in clock ticks (100 a second on Linux).
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return 0;
  }
}
