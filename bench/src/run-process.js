// Runs a one-shot child script (load or latency) and returns the JSON it prints.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

export async function runJson(script, options) {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [fileURLToPath(new URL(script, import.meta.url)), JSON.stringify(options)],
    {
      maxBuffer: 16 * 1024 * 1024,
      timeout: 600_000,
    },
  );
  return JSON.parse(stdout.trim().split('\n').at(-1));
}
