/** Order statistics for timing samples (nearest-rank percentiles: no interpolation between runs). */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
  return sorted[rank - 1] as number;
}

export const median = (samples: readonly number[]): number => percentile(samples, 50);

/** Milliseconds with a precision that matches what is being measured. */
export const ms = (value: number, digits = 1): string => (Number.isFinite(value) ? value.toFixed(digits) : '–');

export const kib = (bytes: number): string => `${(bytes / 1024).toFixed(1)} KiB`;
