import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The pinned Claude Code binary (a dev dependency of the gateway app). */
export const CLAUDE_BIN = fileURLToPath(new URL('../../node_modules/.bin/claude', import.meta.url));

/** The pinned Claude Code version, read from its package. */
export async function claudeCodeVersion(): Promise<string> {
  const pkg = fileURLToPath(new URL('../../node_modules/@anthropic-ai/claude-code/package.json', import.meta.url));
  return (JSON.parse(await readFile(pkg, 'utf8')) as { version: string }).version;
}

/** Options of {@link runClaudeCode}. */
export interface ClaudeCodeRun {
  /** The gateway's origin, e.g. `http://127.0.0.1:PORT` (Claude Code appends `/v1/messages`). */
  baseURL: string;
  /** The gateway key, sent as `x-api-key`. */
  apiKey: string;
  /** The model id to ask for. */
  model: string;
  /** The task given with `-p`. */
  task: string;
  /** Longest run, ms (default 60,000); then the process is killed. */
  timeoutMs?: number;
}

/** What a Claude Code run gave: its exit code, output and the parsed `--output-format json` result. */
export interface ClaudeCodeResult {
  code: number | null;
  stdout: string;
  stderr: string;
  /** The JSON result (`is_error`, `result`, `num_turns`, `usage`...), when stdout held one. */
  json?: {
    is_error?: boolean;
    result?: string;
    num_turns?: number;
    subtype?: string;
    session_id?: string;
    api_error_status?: number | null;
  };
}

/**
 * Runs the pinned Claude Code once, offline, against a gateway: `claude -p <task> --output-format json --allowedTools
 * Bash --model <model>` in a fresh working directory holding `hello.txt` and `notes.md`, with a temporary `HOME` and
 * `CLAUDE_CONFIG_DIR`, `ANTHROPIC_BASE_URL`, `ANTHROPIC_API_KEY` and telemetry, auto-update, non-essential traffic and
 * error reporting off. Resolves when it exits (killed after `timeoutMs`); the temporary directories are removed.
 */
export async function runClaudeCode(run: ClaudeCodeRun): Promise<ClaudeCodeResult> {
  const home = await mkdtemp(join(tmpdir(), 'switchyard-claude-home-'));
  const cwd = await mkdtemp(join(tmpdir(), 'switchyard-claude-work-'));
  await writeFile(join(cwd, 'hello.txt'), 'hello\n');
  await writeFile(join(cwd, 'notes.md'), '# notes\n');
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: home,
    CLAUDE_CONFIG_DIR: join(home, '.claude'),
    DISABLE_TELEMETRY: '1',
    DISABLE_AUTOUPDATER: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_ERROR_REPORTING: '1',
    ANTHROPIC_BASE_URL: run.baseURL,
    ANTHROPIC_API_KEY: run.apiKey,
  };
  try {
    return await new Promise<ClaudeCodeResult>((resolve, reject) => {
      const child = spawn(
        CLAUDE_BIN,
        ['-p', run.task, '--output-format', 'json', '--allowedTools', 'Bash', '--model', run.model],
        { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] },
      );
      let stdout = '';
      let stderr = '';
      child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
      child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
      const timer = setTimeout(() => child.kill('SIGKILL'), run.timeoutMs ?? 60_000);
      child.once('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        const line = stdout
          .trim()
          .split('\n')
          .reverse()
          .find((l) => l.startsWith('{'));
        let json: ClaudeCodeResult['json'];
        try {
          json = line ? (JSON.parse(line) as ClaudeCodeResult['json']) : undefined;
        } catch {
          json = undefined;
        }
        resolve({ code, stdout, stderr, json });
      });
    });
  } finally {
    await rm(home, { recursive: true, force: true });
    await rm(cwd, { recursive: true, force: true });
  }
}
