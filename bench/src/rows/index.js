// The rows of `pnpm bench`, in the order they run. A row is `{ name, title, run(ctx) }`: `run` starts its own fresh
// processes, logs progress with `ctx.log`, stops what it started and resolves with `{ figures, checks }`, `checks`
// being targets made with `check`/`checkAgainst` (./check.js). To add a row, write a module beside this one and list
// it here.
import { accountsKey } from './accounts-key.js';
import { headOfLine } from './head-of-line.js';
import { idleStreams } from './idle-streams.js';
import { interChunk } from './inter-chunk.js';
import { chatX1, p99Added, streamX1 } from './latency.js';
import { realtime } from './realtime.js';
import { soak } from './soak.js';
import { chatX50, streamX50 } from './throughput-x50.js';

export const ROWS = [
  chatX50,
  streamX50,
  chatX1,
  streamX1,
  interChunk,
  p99Added,
  headOfLine,
  idleStreams,
  soak,
  accountsKey,
  realtime,
];
