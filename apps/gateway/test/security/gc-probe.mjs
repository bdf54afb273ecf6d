// Preloaded into a gateway process by tests (NODE_OPTIONS="--expose-gc --import <this file>"): on SIGUSR2 it runs a
// full garbage collection and prints one line to stderr, `gc-probe <n> rss=<bytes> heap=<bytes>`, so that a test can
// read the process's resident memory after GC without any hook in the gateway itself.
let probes = 0;
process.on('SIGUSR2', () => {
  globalThis.gc?.();
  globalThis.gc?.();
  const { rss, heapUsed } = process.memoryUsage();
  probes += 1;
  process.stderr.write(`gc-probe ${probes} rss=${rss} heap=${heapUsed}\n`);
});
