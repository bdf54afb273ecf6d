/** Display helpers: every function returns plain text (rendered as text, never as HTML). */

/** One day in milliseconds (a UTC day: 86,400,000 ms). */
export const DAY_MS = 86_400_000;

/** USD with enough digits for sub-cent calls: `$0.000123`, `$12.50`. */
export function formatUsd(usd: number): string {
  if (usd === 0) return '$0';
  if (Math.abs(usd) >= 1) return `$${usd.toFixed(2)}`;
  return `$${usd.toPrecision(3).replace(/0+$/, '').replace(/\.$/, '')}`;
}

/** Milliseconds, rounded: `42 ms`, `1.3 s`; an em dash when unknown. */
export function formatMs(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return '—';
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/** An integer with thousands separators. */
export function formatCount(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}

/** Unix ms or ISO text as `YYYY-MM-DD HH:MM:SS` UTC; an em dash for null. */
export function formatTime(value: number | string | null | undefined): string {
  if (value === null || value === undefined) return '—';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return String(value);
  return `${date.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

/** A UTC date (`YYYY-MM-DD`) as unix ms at 00:00 UTC; NaN when malformed. */
export function dayStartMs(day: string): number {
  return /^\d{4}-\d\d-\d\d$/.test(day) ? Date.parse(`${day}T00:00:00Z`) : Number.NaN;
}

/** Unix ms as a UTC date `YYYY-MM-DD`. */
export function toDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** Every UTC date from `from` to `to`, both included (`YYYY-MM-DD`); at most 366. */
export function daysBetween(from: string, to: string): string[] {
  const days: string[] = [];
  for (let t = dayStartMs(from); t <= dayStartMs(to) && days.length < 366; t += DAY_MS) days.push(toDay(t));
  return days;
}

/** The range of the last `n` UTC days, today included. */
export function lastDays(n: number, now = Date.now()): { from: string; to: string } {
  return { from: toDay(now - (n - 1) * DAY_MS), to: toDay(now) };
}

/**
 * Per-day series for the usage chart: x (unix seconds at 00:00 UTC), spend (USD) and tokens per day, zero on days
 * without rows. `groups` are `GET /admin/usage?group_by=day` rows.
 */
export function dailySeries(
  days: readonly string[],
  groups: readonly { group?: string; cost_usd: number; total_tokens: number }[],
): [number[], number[], number[]] {
  const byDay = new Map(groups.map((g) => [g.group, g]));
  return [
    days.map((d) => dayStartMs(d) / 1000),
    days.map((d) => byDay.get(d)?.cost_usd ?? 0),
    days.map((d) => byDay.get(d)?.total_tokens ?? 0),
  ];
}

/** Splits the "Models" field (ids or globs, separated by commas, spaces or new lines); null when empty (all models). */
export function parseModelList(text: string): string[] | null {
  const models = text.split(/[\s,]+/).filter(Boolean);
  return models.length > 0 ? models : null;
}

/** A key's status: `revoked`, `expired` or `active`. */
export function keyStatus(
  key: { revoked_at: string | null; expires_at: string | null },
  now = Date.now(),
): 'revoked' | 'expired' | 'active' {
  if (key.revoked_at) return 'revoked';
  if (key.expires_at && Date.parse(key.expires_at) <= now) return 'expired';
  return 'active';
}

/** Cost of a call, USD, from its tokens and a price in USD per million tokens (0 without a price). */
export function costUsd(
  price: { input: number; output: number } | null | undefined,
  promptTokens: number,
  completionTokens: number,
): number {
  if (!price) return 0;
  return (promptTokens * price.input + completionTokens * price.output) / 1_000_000;
}
