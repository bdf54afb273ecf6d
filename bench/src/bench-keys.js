// The keys of the benchmark configs, in a module of their own: the gateway processes import them without loading the
// testkit (fixtures, mock upstreams) that payloads.js needs, so the gateway's own memory is what the bench measures.

/** The gateway key of the benchmark config (sent to every target; the upstream and the bare proxy ignore it). */
export const BENCH_KEY = 'sk-switchyard-bench-0123456789';
/** Admin master key of the limiter rows' gateways. */
export const BENCH_MASTER_KEY = 'sk-switchyard-bench-master-0123456789';
