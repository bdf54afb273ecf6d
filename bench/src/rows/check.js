// Targets of `pnpm bench` rows: one measured figure against its limit.

/**
 * One target: `value` (in `unit`) held against `limit` with `op` ('<=' or '>='). Resolves to the record the report
 * prints and the results file keeps: {figure, value, unit, target, pass}. A value that could not be measured
 * (undefined or NaN) fails.
 */
export function check(figure, value, op, limit, unit = '') {
  const measured = typeof value === 'number' && !Number.isNaN(value);
  const pass = measured && (op === '<=' ? value <= limit : value >= limit);
  return { figure, value: measured ? value : null, unit, target: `${op} ${limit}${unit ? ` ${unit}` : ''}`, pass };
}

/**
 * A target relative to a base measured in the same run: `value` <= `factor` x `base` (both in `unit`, e.g. what
 * Switchyard adds against what the floor adds). Kept as a comparison rather than a ratio, which says nothing when the
 * base is near zero or below it.
 */
export function checkAgainst(figure, value, base, factor, unit = 'ms') {
  const measured = [value, base].every((x) => typeof x === 'number' && !Number.isNaN(x));
  return {
    figure,
    value: measured ? value : null,
    base: measured ? base : null,
    ratio: measured && base > 0 ? value / base : null,
    unit,
    target: `<= ${factor} x ${measured ? base.toFixed(3) : '?'} ${unit}`,
    pass: measured && value <= factor * base,
  };
}

/** The median of `values` (the upper one of an even count). */
export const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/**
 * Runs `measure(name, round)` for every name in `names`, `rounds` times, the order reversed every other round (A B C,
 * C B A, ...), so that a change in the machine's load hits every setup alike. Resolves with `{name: [result, ...]}`.
 */
export async function alternate(names, rounds, measure) {
  const results = Object.fromEntries(names.map((name) => [name, []]));
  for (let round = 0; round < rounds; round++) {
    for (const name of round % 2 === 1 ? [...names].reverse() : names) results[name].push(await measure(name, round));
  }
  return results;
}
