// The markdown table `pnpm bench` prints: every target of the rows that ran, with its figure and pass/fail.

const fmt = (value, unit) =>
  value === null || value === undefined
    ? 'not measured'
    : `${Number(value).toFixed(Math.abs(value) < 10 ? 3 : 1)}${unit ? ` ${unit}` : ''}`;

/** The targets table of `results` (run.js's results object) for `rows` ({name, title}), in markdown. */
export function targetsReport(results, rows) {
  const lines = [
    `\n## Targets (issue #34), ${results.date} (${results.settings.quick ? 'quick' : 'full'} run; ${results.machine.cpus} cores, ${results.machine.node})\n`,
    '| row | figure | measured | target | result |',
    '| --- | --- | ---: | --- | --- |',
  ];
  let held = 0;
  let total = 0;
  for (const row of rows) {
    const result = results.rows[row.name];
    if (result?.error) lines.push(`| ${row.name} | ${row.title} | failed: ${result.error} | | **fail** |`);
    for (const c of result?.checks ?? []) {
      total++;
      if (c.pass) held++;
      const value = c.ratio != null ? `${fmt(c.value, c.unit)} (${c.ratio.toFixed(2)} x)` : fmt(c.value, c.unit);
      // A reference figure measured beside the target's (e.g. the Express floor's own ratio), printed, not judged.
      const measured = c.reference ? `${value} (${c.reference.label}: ${fmt(c.reference.value, c.unit)})` : value;
      lines.push(`| ${row.name} | ${c.figure} | ${measured} | ${c.target} | ${c.pass ? 'pass' : '**fail**'} |`);
    }
  }
  lines.push('', `${held} of ${total} targets held.`);
  return lines.join('\n');
}
