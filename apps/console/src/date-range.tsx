import { useState } from 'preact/hooks';
import { DAY_MS, dayStartMs, lastDays } from './format.js';

/** A UTC date range picked in the console: `from` and `to` as `YYYY-MM-DD`, both days included. */
export interface DayRange {
  from: string;
  to: string;
}

/** A picked date range and the span it asks the admin API for. */
export interface DateRangeState {
  range: DayRange;
  setRange: (range: DayRange) => void;
  /** Unix ms at 00:00 UTC of `range.from` (NaN when malformed). */
  from: number;
  /** Unix ms at 00:00 UTC of the day after `range.to`: the end of the span, excluded (NaN when malformed). */
  to: number;
  /** Whether both dates are well formed and `from` is on or before `to`. */
  valid: boolean;
}

/** The message a page shows when its date range is not valid. */
export const INVALID_RANGE_MESSAGE = 'Pick a start date on or before the end date.';

/** A UTC date range, starting as the last `days` days (today included; default 7). */
export function useDateRange(days = 7): DateRangeState {
  const [range, setRange] = useState<DayRange>(() => lastDays(days));
  const from = dayStartMs(range.from);
  const to = dayStartMs(range.to) + DAY_MS;
  const valid = Number.isFinite(from) && Number.isFinite(to) && from < to;
  return { range, setRange, from, to, valid };
}

/**
 * The From / To date inputs and a Refresh button of a page head. `idPrefix` names the inputs (`<idPrefix>-from`,
 * `<idPrefix>-to`) so that each page's labels point at its own inputs.
 */
export function DateRangeForm({
  idPrefix,
  state,
  onRefresh,
}: {
  idPrefix: string;
  state: DateRangeState;
  onRefresh: () => void;
}) {
  const { range, setRange } = state;
  return (
    <form class="inline" onSubmit={(e) => e.preventDefault()}>
      <label for={`${idPrefix}-from`}>From</label>
      <input
        id={`${idPrefix}-from`}
        type="date"
        value={range.from}
        onChange={(e) => setRange({ ...range, from: e.currentTarget.value })}
      />
      <label for={`${idPrefix}-to`}>To</label>
      <input
        id={`${idPrefix}-to`}
        type="date"
        value={range.to}
        onChange={(e) => setRange({ ...range, to: e.currentTarget.value })}
      />
      <button type="button" class="secondary" onClick={onRefresh}>
        Refresh
      </button>
    </form>
  );
}
