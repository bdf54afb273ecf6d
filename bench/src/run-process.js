// Runs a one-shot child script (load or latency) and returns the JSON it prints; killed after `timeoutMs` (10 min).
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

export async function runJson(script, options, timeoutMs = 600_000) {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [fileURLToPath(new URL(script, import.meta.url)), JSON.stringify(options)],
    {
      maxBuffer: 16 * 1024 * 1024,
      timeout: timeoutMs,
    },
  );
  return JSON.parse(stdout.trim().split('\n').at(-1));
}
