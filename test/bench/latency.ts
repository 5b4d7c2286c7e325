/** The benchmarks' latency figures. */

/** The value at fraction `p` (0.99: p99) of latencies sorted in ascending order. */
export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? NaN;
}
