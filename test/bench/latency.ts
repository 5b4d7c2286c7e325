/** The benchmarks' latency figures. */

/** The value at fraction `p` (0.99: p99) of latencies sorted in ascending order. */
export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? NaN;
}

/**
 * Times `samples` GETs of `url(i)` with a session cookie, one at a time over a kept-alive
 * connection, after `warmup` unmeasured: p50, p95, p99 in ms. Anything but 200 stops the run.
 */
export async function timeGets(url: (i: number) => string, cookie: string, samples: number, warmup: number): Promise<{ p50: number; p95: number; p99: number }> {
  const latencies: number[] = [];
  for (let i = 0; i < warmup + samples; i++) {
    const started = performance.now();
    const res = await fetch(url(i), { headers: { cookie } });
    const body = await res.text();
    const ms = performance.now() - started;
    if (res.status !== 200) throw new Error(`${url(i)}: ${res.status} ${body}`);
    if (i >= warmup) latencies.push(ms);
  }
  latencies.sort((a, b) => a - b);
  return { p50: percentile(latencies, 0.5), p95: percentile(latencies, 0.95), p99: percentile(latencies, 0.99) };
}
