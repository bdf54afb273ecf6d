import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The pinned Codex CLI (`@openai/codex`, a dev dependency of the gateway), its native binary behind a Node launcher. */
export const CODEX_BIN = fileURLToPath(new URL('../../node_modules/.bin/codex', import.meta.url));
/** The pinned Codex version, read from its package.json. */
export const CODEX_VERSION: string = (
  JSON.parse(
    readFileSync(fileURLToPath(new URL('../../node_modules/@openai/codex/package.json', import.meta.url)), 'utf8'),
  ) as { version: string }
).version;

/** Options of {@link runCodex}. */
export interface RunCodexOptions {
  /** The gateway's OpenAI base URL, `http://127.0.0.1:PORT/v1`. */
  baseUrl: string;
  /** The gateway key Codex sends (`SWITCHYARD_KEY`, as `Authorization: Bearer`). */
  key: string;
  /** The model id in Codex's config (it decides Codex's tools: a slug of its catalog such as `gpt-5.5` declares `apply_patch` as a freeform tool). */
  model: string;
  /** What to ask. */
  task: string;
  /** The working directory Codex acts in (its shell tool runs there). */
  cwd: string;
  /** Kill Codex after this many ms (default 60,000). */
  timeoutMs?: number;
}

/** What a Codex run gave: its exit code, its output (the last message on stdout) and its log (stderr). */
export interface CodexRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `codex exec --skip-git-repo-check --dangerously-bypass-approvals-and-sandbox "<task>"` (stdin closed) with a
 * fresh temporary `CODEX_HOME` (and `HOME`) whose `config.toml` points a `switchyard` model provider at the gateway
 * (`wire_api = "responses"`, no retries), offline: no telemetry, no update check. Resolves when it exits (or is killed
 * after `timeoutMs`).
 * @see https://github.com/openai/codex/blob/main/docs/config.md#model_providers
 */
export async function runCodex(options: RunCodexOptions): Promise<CodexRun> {
  const home = await mkdtemp(join(tmpdir(), 'switchyard-codex-home-'));
  await writeFile(
    join(home, 'config.toml'),
    [
      `model = "${options.model}"`,
      'model_provider = "switchyard"',
      '[model_providers.switchyard]',
      'name = "Switchyard"',
      `base_url = "${options.baseUrl}"`,
      'env_key = "SWITCHYARD_KEY"',
      'wire_api = "responses"',
      'request_max_retries = 0',
      'stream_max_retries = 0',
      '',
    ].join('\n'),
  );
  const env = {
    PATH: process.env.PATH ?? '',
    HOME: home,
    CODEX_HOME: home,
    SWITCHYARD_KEY: options.key,
    NO_COLOR: '1',
    RUST_LOG: 'error',
  };
  const child = spawn(
    CODEX_BIN,
    ['exec', '--skip-git-repo-check', '--dangerously-bypass-approvals-and-sandbox', options.task],
    {
      cwd: options.cwd,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 60_000);
  const code = await new Promise<number | null>((resolve) => child.once('exit', (exitCode) => resolve(exitCode)));
  clearTimeout(timer);
  return { code, stdout, stderr };
}
