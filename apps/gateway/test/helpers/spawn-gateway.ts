import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const CLI = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));

/** A `switchyard start` process (the built CLI) for tests. */
export interface SpawnedGateway {
  child: ChildProcess;
  /** `http://127.0.0.1:PORT/v1` once it listens. */
  url: string;
  origin: string;
  /** Every stderr line so far. */
  lines: string[];
  /** Every stdout line so far (the JSON log lines). */
  logs: string[];
  /** Resolves with the first stderr line matching `pattern` (past or future); rejects after `timeoutMs` or on exit. */
  waitForLine(pattern: RegExp, timeoutMs?: number): Promise<string>;
  /** SIGTERM, then waits for the exit; resolves with the exit code. */
  stop(): Promise<number | null>;
}

/** What a process that exited before listening printed, and its code. */
export interface FailedStart {
  code: number | null;
  stderr: string;
}

/**
 * Writes `yaml` to a temporary config file and runs `node dist/cli.js start --config FILE ...args`. Resolves once it
 * prints `switchyard listening on URL`; rejects with the stderr when it exits first (or after `startTimeoutMs`, default
 * 20 s).
 */
export async function spawnGateway(
  yaml: string,
  args: string[] = [],
  env: NodeJS.ProcessEnv = {},
  startTimeoutMs = 20_000,
): Promise<SpawnedGateway> {
  const dir = await mkdtemp(join(tmpdir(), 'switchyard-cli-'));
  const file = join(dir, 'switchyard.yaml');
  await writeFile(file, yaml);
  const child = spawn(process.execPath, [CLI, 'start', '--config', file, ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // Never leave a gateway (or a cluster primary and its workers) behind when the test process ends early.
  const reap = () => child.kill('SIGKILL');
  process.once('exit', reap);
  child.once('exit', () => process.off('exit', reap));
  const lines: string[] = [];
  const logs: string[] = [];
  let restOut = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    const parts = (restOut + chunk).split('\n');
    restOut = parts.pop() ?? '';
    logs.push(...parts);
  });
  const waiters = new Set<() => void>();
  let rest = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    const parts = (rest + chunk).split('\n');
    rest = parts.pop() ?? '';
    lines.push(...parts);
    for (const wake of waiters) wake();
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let exitCode: number | null | undefined;
  void exited.then((code) => {
    exitCode = code;
    for (const wake of waiters) wake();
  });
  const waitForLine = (pattern: RegExp, timeoutMs = 20_000) =>
    new Promise<string>((resolve, reject) => {
      const timer = setTimeout(
        () => finish(new Error(`no line matching ${pattern} within ${timeoutMs} ms:\n${lines.join('\n')}`)),
        timeoutMs,
      );
      const finish = (error?: Error, line?: string) => {
        clearTimeout(timer);
        waiters.delete(check);
        if (error) reject(error);
        else resolve(line as string);
      };
      const check = () => {
        const line = lines.find((l) => pattern.test(l));
        if (line) finish(undefined, line);
        else if (exitCode !== undefined)
          finish(
            Object.assign(
              new Error(`exited with code ${exitCode} before printing ${pattern}:\n${lines.join('\n')}${rest}`),
              { code: exitCode, stderr: lines.join('\n') + rest },
            ),
          );
      };
      waiters.add(check);
      check();
    });
  const listening = await waitForLine(/switchyard listening on (\S+)/, startTimeoutMs);
  const url = /switchyard listening on (\S+)/.exec(listening)?.[1] as string;
  return {
    child,
    url,
    origin: url.replace(/\/v1$/, ''),
    lines,
    logs,
    waitForLine,
    stop: async () => {
      if (exitCode === undefined) child.kill('SIGTERM');
      return exited;
    },
  };
}

/** Runs the CLI with a config that must not start; resolves with its exit code and stderr. */
export async function failedStart(
  yaml: string,
  args: string[] = [],
  env: NodeJS.ProcessEnv = {},
): Promise<FailedStart> {
  try {
    const gateway = await spawnGateway(yaml, args, env);
    await gateway.stop();
    throw new Error('the gateway started');
  } catch (error) {
    const { code, stderr } = error as Partial<FailedStart>;
    if (stderr === undefined) throw error;
    return { code: code ?? null, stderr };
  }
}
