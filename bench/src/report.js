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

/**
 * Precise one-connection latency (ms) and what the gateway adds over the direct path and the bare proxy, with the
 * Express floor's own figures (non-streamed chat only) for calibration.
 */
export function latencyTable(rows) {
  const lines = [
    '| scenario (1 connection) | metric | direct | bare proxy | express floor | switchyard | added vs direct | added vs proxy |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const r of rows) {
    for (const [metric, key] of [
      ['TTFB p50', 'ttfbP50'],
      ['TTFB p99', 'ttfbP99'],
      ['last byte p50', 'ttlbP50'],
    ]) {
      // Measured in rounds: what the gateway adds is the median of each round's difference (see run.js).
      const addedVsProxy = r.added?.switchyard?.[key] ?? r.switchyard[key] - r.proxy[key];
      lines.push(
        `| ${r.scenario} | ${metric} | ${fmt(r.direct[key], 3)} | ${fmt(r.proxy[key], 3)} | ${fmt(r.expressFloor?.[key], 3)} | ${fmt(r.switchyard[key], 3)} | ${fmt(r.switchyard[key] - r.direct[key], 3)} | ${fmt(addedVsProxy, 3)} |`,
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
    lines.push(
      `| ${r.label} | ${fmt(r.rps)} | ${fmt(r.rps / rows[0].rps, 2)} x |${cpu ? ` ${fmt(r.cpuUsPerRequest)} |` : ''} ${fmt(r.p50, 1)} | ${fmt(r.p99, 1)} | ${r.errors} | ${r.non2xx} |`,
    );
  }
  return lines.join('\n');
}

/**
 * The figures the issues set targets for (#14 hot path, #13 Redis limiter, #20 metrics), each measured in this run,
 * with its target and whether it was met: ratios to the bare proxy at 50 connections, what the gateway adds at one
 * connection (ms), the memory of idle streams, and the side-by-side ratios, plus the Express floor's own figure where
 * the floor runs that scenario. A figure this run did not measure is `–`.
 */
export function targetsTable({ throughput, targetRows = {}, latency, memory, limiterRatio, metricsRatio, scaleOut }) {
  // The side-by-side rounds when they ran (BENCH_SCENARIOS `targets`), else the single runs of the throughput table.
  const ratio = (scenario, who = 'switchyard') => {
    const sideBySide = targetRows[scenario];
    if (sideBySide) return sideBySide[who] && sideBySide[who].rps / sideBySide.proxy.rps;
    const row = throughput.find((r) => r.scenario === scenario && r.connections === 50);
    return row?.[who] && row[who].rps / row.proxy.rps;
  };
  const added = (scenario, key, who = 'switchyard') => {
    const row = latency.find((r) => r.scenario === scenario);
    return row?.added?.[who]?.[key] ?? (row?.[who] && row[who][key] - row.proxy[key]);
  };
  const mib = memory && memory.streams > 1 ? memory.projectedRss10k / 1024 / 1024 : undefined;
  const workers = scaleOut.length === 2 ? scaleOut[1].rps / scaleOut[0].rps : undefined;
  // The Express floor's own figure where it has one: what any Express app pays, below which the gateway cannot go.
  const rows = [
    ['chat, 50 connections, / bare proxy', ratio('chat'), 2, '>= 0.50', (v) => v >= 0.5, ratio('chat', 'expressFloor')],
    [
      'chat streamed (100 chunks), 50 connections, / bare proxy',
      ratio('chat-stream-100'),
      2,
      '>= 0.40',
      (v) => v >= 0.4,
    ],
    [
      'embeddings 16 x 1536 float, 50 connections, / bare proxy',
      ratio('embeddings-16x1536-float'),
      2,
      '>= 0.75',
      (v) => v >= 0.75,
    ],
    [
      'chat, 1 connection, p50 added over the bare proxy (ms)',
      added('chat', 'ttlbP50'),
      3,
      '<= 0.10',
      (v) => v <= 0.1,
      added('chat', 'ttlbP50', 'expressFloor'),
    ],
    [
      'streamed chat, 1 connection, time to first byte added over the proxy (ms)',
      added('chat-stream-100', 'ttfbP50'),
      3,
      '<= 0.30',
      (v) => v <= 0.3,
    ],
    ['10,000 idle streams, gateway RSS (MiB, projected from the streams held)', mib, 0, '<= 600', (v) => v <= 600],
    [
      'Redis limiter / in-process limiter (chat, 50 connections)',
      limiterRatio,
      2,
      '(one Redis round trip per request)',
      undefined,
    ],
    ['metrics on / metrics off (chat, 50 connections)', metricsRatio, 3, '>= 0.97', (v) => v >= 0.97],
    ['--workers 2 / one process (chat, 50 connections)', workers, 2, '(more than 1 where cores are free)', undefined],
  ];
  const lines = ['| figure | this run | target | met | Express floor, same run |', '| --- | ---: | --- | --- | ---: |'];
  for (const [name, value, digits, target, met, floor] of rows) {
    const measured = value !== undefined && !Number.isNaN(value);
    lines.push(
      `| ${name} | ${measured ? fmt(value, digits) : '–'} | ${target} | ${!measured || !met ? '' : met(value) ? 'yes' : '**no**'} | ${floor === undefined ? '' : fmt(floor, digits)} |`,
    );
  }
  return lines.join('\n');
}

/**
 * The side-by-side rounds of the issue #14 ratios (chat, streamed chat, float embeddings at 50 connections): each
 * server's mean req/s over the rounds, its ratio to the bare proxy (of the means, and the lowest and highest of the
 * rounds' own ratios) and its CPU time per request (microseconds).
 */
export function sideBySideTable(targetRows) {
  const lines = [
    '| scenario (50 connections) | server | req/s (mean of rounds) | rounds | / bare proxy | ratios of the rounds (min - max) | CPU us/req |',
    '| --- | --- | ---: | --- | ---: | --- | ---: |',
  ];
  for (const [scenario, rows] of Object.entries(targetRows)) {
    for (const row of Object.values(rows)) {
      const ratios = row.roundRatios ?? [];
      lines.push(
        `| ${scenario} | ${row.label} | ${fmt(row.rps)} | ${row.runs.map((x) => fmt(x)).join(', ')} | ${fmt(row.rps / rows.proxy.rps, 2)} | ${ratios.length ? `${fmt(Math.min(...ratios), 2)} - ${fmt(Math.max(...ratios), 2)}` : '–'} | ${fmt(row.cpuUsPerRequest)} |`,
      );
    }
  }
  return lines.join('\n');
}
