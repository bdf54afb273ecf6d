import { z } from 'zod';
import { bytes, ms } from './schema-units.js';

/**
 * `/v1/files`: the bytes of uploaded files live in `dir` (default: the folder `switchyard-files` beside the SQLite
 * file or the config file; a shared volume when replicas share Postgres), metadata in the store. At most `max_bytes`
 * per upload (default 512 MB) and `max_bytes_per_key` stored per key (default 10 GiB).
 */
export const filesConfigSchema = z
  .strictObject({
    dir: z.string().min(1).optional(),
    max_bytes: bytes.default(512 * 1024 * 1024),
    max_bytes_per_key: bytes.default(10 * 1024 * 1024 * 1024),
  })
  .prefault({});

/**
 * `/v1/batches` run by the gateway: at most `concurrency` lines at once per deployment (default 4), and none started
 * while `yield_above` live requests are in flight in this process (default 32); at most `max_lines` lines per batch
 * (default 50,000); a claimed line is held `lease_ms` (default 10 minutes) before another replica may take it over;
 * runners look for work every `poll_ms` (default 1,000) while there is some. Batches of OpenAI and Azure deployments
 * run on their own batch API (`native`, default true), asked how they stand every `upstream_poll_ms` (default 30 s).
 */
export const batchesConfigSchema = z
  .strictObject({
    concurrency: z.number().int().positive().max(256).default(4),
    yield_above: z.number().int().positive().default(32),
    max_lines: z.number().int().positive().max(1_000_000).default(50_000),
    lease_ms: ms.default(10 * 60 * 1000),
    poll_ms: ms.default(1_000),
    native: z.boolean().default(true),
    upstream_poll_ms: ms.default(30_000),
  })
  .prefault({});
