import cluster, { type Worker } from 'node:cluster';

/** Options of {@link runPrimary}. */
export interface PrimaryOptions {
  /** Worker processes to keep running. */
  workers: number;
  /** One line for the operator (stderr in the CLI). */
  log: (line: string) => void;
  /** Longest wait for workers to stop on SIGTERM/SIGINT before the primary exits anyway, ms. Default 15,000. */
  stopTimeoutMs?: number;
}

/**
 * The cluster primary of `switchyard start --workers N`: forks N copies of this process (same argv, each a full gateway
 * listening on the configured port; node:cluster hands connections to them round-robin), restarts a worker that dies,
 * and on SIGTERM/SIGINT passes the signal on and exits when all have stopped (SIGHUP is passed on too). A worker that dies before any worker ever
 * listened means the gateway cannot start (its own error is on stderr): the primary then stops the others and exits
 * with code 1 rather than restarting in a loop. Restarts of workers that die quickly one after another back off, up
 * to 10 s. Resolves with the URL once all N workers listen.
 * @see https://nodejs.org/api/cluster.html
 */
export function runPrimary(options: PrimaryOptions): Promise<string> {
  const { workers, log } = options;
  let stopping = false;
  let everListened = false;
  let listening = 0;
  let rapidDeaths = 0;
  const started = new Map<number, number>();
  const fork = () => {
    const worker = cluster.fork({ SWITCHYARD_WORKER: '1' });
    started.set(worker.id, Date.now());
    return worker;
  };
  const all = () => Object.values(cluster.workers ?? {}).filter((w): w is Worker => w !== undefined);
  const stop = (code: number) => {
    if (stopping) return;
    stopping = true;
    for (const worker of all()) worker.process.kill('SIGTERM');
    const done = () => {
      if (all().length === 0) process.exit(code);
    };
    cluster.on('exit', done);
    done();
    setTimeout(() => process.exit(code), options.stopTimeoutMs ?? 15_000).unref();
  };
  process.once('SIGTERM', () => stop(0));
  process.once('SIGINT', () => stop(0));
  // SIGHUP re-reads the upstream providers' secrets: each worker does it itself.
  process.on('SIGHUP', () => {
    for (const worker of all()) worker.process.kill('SIGHUP');
  });

  return new Promise((resolve) => {
    cluster.on('listening', (worker, address) => {
      if (!everListened && ++listening === workers) {
        everListened = true;
        const host = address.address?.includes(':') ? `[${address.address}]` : (address.address ?? '127.0.0.1');
        resolve(`http://${host}:${address.port}/v1`);
      } else if (everListened) {
        log(`worker ${worker.process.pid} listening`);
      }
    });
    cluster.on('exit', (worker, code, signal) => {
      if (stopping) return;
      if (!everListened) {
        log(`worker ${worker.process.pid} exited (${signal ?? `code ${code}`}) before the gateway started; stopping`);
        stop(1);
        return;
      }
      const lived = Date.now() - (started.get(worker.id) ?? 0);
      started.delete(worker.id);
      rapidDeaths = lived < 5_000 ? rapidDeaths + 1 : 0;
      const delay = rapidDeaths === 0 ? 0 : Math.min(10_000, 250 * 2 ** (rapidDeaths - 1));
      log(
        `worker ${worker.process.pid} died (${signal ?? `code ${code}`}); starting a new one${delay ? ` in ${delay} ms` : ''}`,
      );
      setTimeout(() => {
        if (!stopping) log(`worker ${fork().process.pid} started`);
      }, delay);
    });
    for (let i = 0; i < workers; i++) log(`worker ${fork().process.pid} started`);
  });
}
