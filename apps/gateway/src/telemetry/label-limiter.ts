/**
 * Bounds the values one Prometheus label may take, so that clients cannot grow the metrics without limit (every
 * label combination is a time series kept in memory): values longer than `maxLength` characters, and new values once
 * `maxValues` distinct ones have been seen, become `other`.
 */
export class LabelLimiter {
  readonly #seen = new Set<string>();

  /** @param maxValues distinct values kept (default 500); @param maxLength longest value kept, characters (default 128). */
  constructor(
    readonly maxValues = 500,
    readonly maxLength = 128,
  ) {}

  /** The label value to use for `value`: itself, `''` when absent, or `other`. */
  value(value: string | undefined): string {
    if (value === undefined) return '';
    if (this.#seen.has(value)) return value;
    if (value.length > this.maxLength || this.#seen.size >= this.maxValues) return 'other';
    this.#seen.add(value);
    return value;
  }
}
