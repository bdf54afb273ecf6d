// Markdown tables of the results.
const fmt = (n, digits = 0) => (n === undefined || n === null || Number.isNaN(n) ? '–' : Number(n).toFixed(digits));

/**
 * Throughput and latency per scenario and connection count, three ways, with ratios, and the CPU time the bare proxy
 * and the gateway spent per request (microseconds; steadier than req/s when other work shares the cores).
 */
export function throughputTable(rows) {
  const lines = [
    '| scenario | conns | direct req/s | bare proxy req/s | express floor req/s | switchyard req/s | switchyard / proxy | switchyard / direct | CPU us/req (p / s) | p50 ms (d / p / s) | p99 ms (d / p / s) | p99.9 ms (s) | errors (s) |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- | --- | ---: | ---: |',
  ];
  for (const r of rows) {
    const { direct: d, proxy: p, switchyard: s } = r;
    lines.push(
      `| ${r.scenario} | ${r.connections} | ${fmt(d.rps)} | ${fmt(p.rps)} | ${fmt(r.expressFloor?.rps)} | ${fmt(s.rps)} | ${fmt((100 * s.rps) / p.rps)} % | ${fmt((100 * s.rps) / d.rps)} % | ${fmt(p.cpuUsPerRequest)} / ${fmt(s.cpuUsPerRequest)} | ${fmt(d.p50, 1)} / ${fmt(p.p50, 1)} / ${fmt(s.p50, 1)} | ${fmt(d.p99, 1)} / ${fmt(p.p99, 1)} / ${fmt(s.p99, 1)} | ${fmt(s.p999, 1)} | ${s.errors + s.non2xx} |`,
    );
  }
  return lines.join('\n');
}

/** Precise one-connection latency (ms) and what the gateway adds over the direct path and the bare proxy. */
export function latencyTable(rows) {
  const lines = [
    '| scenario (1 connection) | metric | direct | bare proxy | switchyard | added vs direct | added vs proxy |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const r of rows) {
    for (const [metric, key] of [
      ['TTFB p50', 'ttfbP50'],
      ['TTFB p99', 'ttfbP99'],
      ['last byte p50', 'ttlbP50'],
    ]) {
      lines.push(
        `| ${r.scenario} | ${metric} | ${fmt(r.direct[key], 3)} | ${fmt(r.proxy[key], 3)} | ${fmt(r.switchyard[key], 3)} | ${fmt(r.switchyard[key] - r.direct[key], 3)} | ${fmt(r.switchyard[key] - r.proxy[key], 3)} |`,
      );
    }
  }
  return lines.join('\n');
}

/**
 * Side-by-side rows (one process vs several workers, limiter kinds, metrics on and off): req/s, each row's ratio to the
 * first, latency, and CPU time per request (microseconds) where it was measured.
 */
export function scaleOutTable(rows) {
  const cpu = rows.some((r) => r.cpuUsPerRequest !== undefined);
  const lines = [
    `| setup | req/s | vs first row |${cpu ? ' CPU us/req |' : ''} p50 ms | p99 ms | errors | non-2xx |`,
    `| --- | ---: | ---: |${cpu ? ' ---: |' : ''} ---: | ---: | ---: | ---: |`,
  ];
  for (const r of rows) {
    lines.push(`| ${r.label} | ${fmt(r.rps)} | ${fmt(r.rps / rows[0].rps, 2)} x |${cpu ? ` ${fmt(r.cpuUsPerRequest)} |` : ''} ${fmt(r.p50, 1)} | ${fmt(r.p99, 1)} | ${r.errors} | ${r.non2xx} |`);
  }
  return lines.join('\n');
}
