import { availableParallelism } from 'node:os';
import { ConfigError } from '../config/config-error.js';

/**
 * How many gateway processes to run: `--workers` (a string from the command line) wins over `server.workers`;
 * `auto` means one per core (`os.availableParallelism()`); default 1 (no cluster). Throws ConfigError for anything
 * but a positive integer or `auto`.
 */
export function resolveWorkerCount(flag: string | undefined, configured: number | 'auto' | undefined): number {
  const value = flag ?? configured ?? 1;
  if (value === 'auto') return availableParallelism();
  const count = typeof value === 'number' ? value : /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isInteger(count) || count < 1)
    throw new ConfigError(`--workers: '${value}' is not a positive number or 'auto'.`);
  return count;
}
