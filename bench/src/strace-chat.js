// `node bench/src/strace-chat.js [requests] [stream]`: the system calls each server (Express floor, Switchyard, and
// BENCH_BASE's) makes per non-streamed chat (or streamed with `stream`), counted by `strace -c -f` attached to its
// process while `requests` chats go through it on 10 connections. Prints strace's table per server, per request.
import { spawn } from 'node:child_process';
import { Agent } from 'undici';
import { closedLoop } from './closed-loop.js';
import { startFleet, withBase } from './fleet.js';
import { chatBody, streamBody } from './payloads.js';

const requests = Number(process.argv[2] ?? 2000);
const body = process.argv[3] === 'stream' ? streamBody : chatBody;
const fleet = await startFleet(withBase(['floor', 'switchyard']));
const dispatcher = new Agent({ connections: 10, pipelining: 1 });

const load = (url, count) => closedLoop(url, count, body, dispatcher);

try {
  for (const name of Object.keys(fleet.urls).filter((n) => n !== 'direct')) {
    await load(fleet.urls[name], 500);
    const strace = spawn('strace', ['-c', '-f', '-p', String(fleet.processes[name].child.pid)], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let table = '';
    strace.stderr.on('data', (chunk) => (table += chunk));
    await new Promise((resolve) => setTimeout(resolve, 500));
    await load(fleet.urls[name], requests);
    const exited = new Promise((resolve) => strace.once('exit', resolve));
    strace.kill('SIGINT');
    await exited;
    console.log(`${name}: system calls per request (${requests} requests)`);
    for (const line of table.split('\n')) {
      const m = /^\s*[\d.]+\s+[\d.]+\s+\d+\s+(\d+)\s+(?:\d+\s+)?(\w+)$/.exec(line);
      if (m) console.log(`  ${(Number(m[1]) / requests).toFixed(2).padStart(7)}  ${m[2]}`);
    }
  }
} finally {
  await dispatcher.close();
  await fleet.stop();
}
