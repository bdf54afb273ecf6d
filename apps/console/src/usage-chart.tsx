import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import { formatUsd } from './format.js';

/**
 * Spend (USD, left axis) and tokens (right axis) per UTC day, drawn with uPlot on a canvas. `series` is
 * `[x (unix seconds), spend, tokens]`, as {@link dailySeries} builds it.
 * @see https://github.com/leeoniya/uPlot/tree/master/docs
 */
export function UsageChart({ series }: { series: [number[], number[], number[]] }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const options: uPlot.Options = {
      width: Math.max(320, element.clientWidth),
      height: 260,
      tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
      scales: {
        x: { time: true },
        usd: { auto: true, range: (_u, _min, max) => [0, max > 0 ? max * 1.1 : 1] },
        tokens: { auto: true, range: (_u, _min, max) => [0, max > 0 ? max * 1.1 : 1] },
      },
      series: [
        {},
        {
          label: 'Spend (USD)',
          scale: 'usd',
          stroke: '#2563eb',
          width: 2,
          fill: 'rgba(37, 99, 235, 0.12)',
          value: (_u, v) => (v === null ? '—' : formatUsd(v)),
        },
        {
          label: 'Tokens',
          scale: 'tokens',
          stroke: '#d97706',
          width: 2,
          value: (_u, v) => (v === null ? '—' : Math.round(v).toLocaleString('en-US')),
        },
      ],
      axes: [
        { space: 60 },
        { scale: 'usd', label: 'USD', values: (_u, ticks) => ticks.map((t) => formatUsd(t)), size: 70 },
        { scale: 'tokens', label: 'tokens', side: 1, grid: { show: false }, size: 70 },
      ],
    };
    const plot = new uPlot(options, series, element);
    const resize = new ResizeObserver(() => plot.setSize({ width: Math.max(320, element.clientWidth), height: 260 }));
    resize.observe(element);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [series]);
  return <div class="chart" ref={box} role="img" aria-label="Spend and tokens per day" />;
}
