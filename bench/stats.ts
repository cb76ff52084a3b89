/** Percentiles of timing samples, by the nearest-rank rule (the p99 of 100 samples is the 99th). */
export interface Summary {
  samples: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

export function summarize(values: readonly number[]): Summary {
  const sorted = [...values].sort((a, b) => a - b);
  const rank = (q: number) =>
    sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? Number.NaN;
  return { samples: sorted.length, p50: rank(0.5), p95: rank(0.95), p99: rank(0.99), max: sorted.at(-1) ?? Number.NaN };
}

export const ms = (value: number, digits = 2) => (Number.isNaN(value) ? '-' : value.toFixed(digits));
