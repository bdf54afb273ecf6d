import { z } from 'zod';
import { bytes } from './schema-units.js';

/**
 * Stored responses of the Responses API: kept `retention_days` days (and while a later response continues from
 * them); at most `max_stored_bytes_per_key` bytes per key in every store (default 64 MiB; a key's oldest go first);
 * without accounts in memory, at most `max_in_memory` of them and `memory_bytes` bytes in all (default 256 MiB; the
 * oldest go first). Bytes are those of the records' JSON.
 */
export const responsesConfigSchema = z
  .strictObject({
    retention_days: z.number().positive().default(30),
    max_in_memory: z.number().int().positive().default(1000),
    memory_bytes: bytes.default(256 * 1024 * 1024),
    max_stored_bytes_per_key: bytes.default(64 * 1024 * 1024),
  })
  .prefault({});
