/** What the load benchmarks share: the healthcheck prober and small statistics. */

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
