// `node bench/src/strace-accounts.js [requests] [static]`: the system calls Switchyard makes per non-streamed chat with
// the `accounts-key` row's virtual key (Redis limits, Postgres ledger), or with its static key when `static` is given,
// counted by `strace -c -f` attached to the gateway while `requests` chats go through it on CONNECTIONS connections
// (default 50, the row's); with BENCH_BASE, that checkout's gateway after it, on the same Redis and Postgres.
import { spawn } from 'node:child_process';
import { Agent } from 'undici';
import { rowKey, startRowServices } from './accounts-key-setup.js';
import { startChild } from './child.js';
import { stopAll } from './fleet.js';
import { closedLoop } from './closed-loop.js';
import { chatBody } from './payloads.js';

const requests = Number(process.argv[2] ?? 5000);
const staticKey = process.argv[3] === 'static';
const connections = Number(process.env.CONNECTIONS ?? 50);
const dispatcher = new Agent({ connections, pipelining: 1 });
const gateways = { switchyard: 'gateway-process.js' };
if (process.env.BENCH_BASE) gateways.base = `${process.env.BENCH_BASE}/bench/src/gateway-process.js`;

/** Sends `count` chats with `key` from `connections` loops (see `closedLoop`). */
const load = (url, key, count) => closedLoop(url, count, chatBody, dispatcher, connections, key);

const { services, upstream, yaml } = await startRowServices(staticKey);
try {
  for (const [name, script] of Object.entries(gateways)) {
    const gateway = await startChild(script, [upstream.ready.url, yaml]);
    try {
      const key = await rowKey(gateway.ready.url, staticKey);
      await load(gateway.ready.url, key, 2000);
      const strace = spawn('strace', ['-c', '-f', '-p', String(gateway.child.pid)], {
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let table = '';
      strace.stderr.on('data', (chunk) => (table += chunk));
      await new Promise((resolve) => setTimeout(resolve, 500));
      await load(gateway.ready.url, key, requests);
      const exited = new Promise((resolve) => strace.once('exit', resolve));
      strace.kill('SIGINT');
      await exited;
      let total = 0;
      const rows = [];
      for (const line of table.split('\n')) {
        const m = /^\s*[\d.]+\s+[\d.]+\s+\d+\s+(\d+)\s+(?:\d+\s+)?(\w+)$/.exec(line);
        if (m && m[2] !== 'total') {
          total += Number(m[1]);
          rows.push(`  ${(Number(m[1]) / requests).toFixed(2).padStart(7)}  ${m[2]}`);
        }
      }
      console.log(
        `${name} (${staticKey ? 'static key' : 'virtual key'}): ${(total / requests).toFixed(2)} system calls per request (${requests} requests, ${connections} connections)`,
      );
      for (const row of rows) console.log(row);
    } finally {
      await stopAll([gateway]);
    }
  }
} finally {
  await dispatcher.close();
  await stopAll([upstream, services]);
}
