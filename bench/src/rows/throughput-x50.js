// Rows `chat-x50` and `stream-x50`: 50 connections of chat (or of streamed chat, 100 chunks) through the bare proxy,
// the Express floor and Switchyard, fresh processes, alternating rounds; CPU time per request of each server process
// (user + system over its rounds / requests it answered) and req/s. Every server runs with `steadyFlags` (V8's memory
// reducer off: see there).
import { compareSetups, gcText } from '../compare-setups.js';
import { startFleet, steadyFlags, withBase } from '../fleet.js';
import { BENCH_KEY, chatBody, streamBody } from '../payloads.js';
import { check } from './check.js';

async function sideBySide(ctx, body) {
  const names = withBase(['proxy', 'floor', 'switchyard']);
  const fleet = await startFleet(names, { serverExecArgv: steadyFlags(ctx) });
  try {
    const setups = names.map((label) => ({
      label,
      url: fleet.urls[label],
      key: BENCH_KEY,
      child: fleet.processes[label].child,
    }));
    const load = { method: 'POST', path: '/v1/chat/completions', body, connections: 50, duration: ctx.duration };
    const rows = await compareSetups(setups, load, ctx.rounds, ctx.warmup, {
      rewarmSeconds: ctx.rewarm,
      warmupRequests: ctx.warmupRequests,
    });
    for (const row of rows)
      ctx.log(
        `${row.label}: ${row.rps.toFixed(0)} req/s (rounds ${row.runs.map((x) => x.toFixed(0)).join(', ')}), CPU ${row.cpuUsPerRequest.toFixed(0)} us/req (rounds ${row.cpuRuns.map((x) => x.toFixed(0)).join(', ')}; system ${row.systemRuns.map((x) => x.toFixed(0)).join(', ')}; GC pauses ${gcText(row.gcRuns)}), ${row.errors + row.non2xx} errors, warm-up ${row.warmupRequests} requests`,
      );
    const figures = Object.fromEntries(rows.map((row) => [row.label, row]));
    if (figures.base)
      ctx.log(
        `this build / BENCH_BASE: CPU per request ${(figures.switchyard.cpuUsPerRequest / figures.base.cpuUsPerRequest).toFixed(3)}, req/s ${(figures.switchyard.rps / figures.base.rps).toFixed(3)}`,
      );
    return figures;
  } finally {
    await fleet.stop();
  }
}

export const chatX50 = {
  name: 'chat-x50',
  title: 'chat, 50 connections: CPU per request, Switchyard / Express floor',
  async run(ctx) {
    const figures = await sideBySide(ctx, chatBody);
    const ratio = figures.switchyard.cpuUsPerRequest / figures.floor.cpuUsPerRequest;
    return { figures, checks: [check('chat x50, CPU per request / floor', ratio, '<=', 1.0)] };
  },
};

export const streamX50 = {
  name: 'stream-x50',
  title: 'streamed chat (100 chunks), 50 connections: CPU per request and req/s, Switchyard / Express floor',
  async run(ctx) {
    const figures = await sideBySide(ctx, streamBody);
    const cpu = figures.switchyard.cpuUsPerRequest / figures.floor.cpuUsPerRequest;
    const rps = figures.switchyard.rps / figures.floor.rps;
    return {
      figures,
      checks: [
        check('streamed chat x50, CPU per request / floor', cpu, '<=', 1.25),
        check('streamed chat x50, req/s / floor', rps, '>=', 0.8),
      ],
    };
  },
};
