// Small statistics over samples: medians of repeated runs, percentiles of latencies.
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank]!;
}

export const median = (values: readonly number[]) => percentile(values, 50);

/** `a / b`, rounded for a table. */
export function ratio(a: number, b: number, digits = 2): string {
  return b === 0 || !Number.isFinite(a / b) ? 'n/a' : (a / b).toFixed(digits);
}

/** Thousands with a thin separator, as the doc prints them. */
export function count(value: number): string {
  return Math.round(value).toLocaleString('en-US');
}

export function ms(value: number, digits = value < 10 ? 2 : 1): string {
  return `${value.toFixed(digits)} ms`;
}
