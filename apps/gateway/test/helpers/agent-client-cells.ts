import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { onTestFinished } from 'vitest';

/** Where the e2e tests of real clients leave their cells: `apps/gateway/test-output/agent-clients/` (git-ignored). */
export const AGENT_CLIENT_CELLS_DIR = fileURLToPath(new URL('../../test-output/agent-clients/', import.meta.url));

/** One cell of `docs/agent-clients.md`: a real client (with its version) on one route, and whether its test passed. */
export interface AgentClientCell {
  /** The client as users know it, e.g. `Codex CLI`, `openai SDK responses.stream()`. */
  client: string;
  /** The client's version, e.g. `0.171.0`. */
  version: string;
  /** The route, e.g. `OpenAI Responses pass-through`, `translated to Anthropic`. */
  route: string;
  /** Whether the test passed. */
  ok: boolean;
  /** What the test saw, e.g. `exit 0, 2 turns`. */
  detail: string;
}

const slug = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

/**
 * Registers the cell of the running test: once it finishes, `<client-slug>--<route-slug>.json` is written under
 * {@link AGENT_CLIENT_CELLS_DIR} with `ok` = whether it passed and `detail` as `cell.detail()` reads it then (what the
 * test saw; a failed test gets its first error's message instead). Call it inside the test, before its assertions.
 */
export function recordAgentClientCell(cell: Omit<AgentClientCell, 'ok' | 'detail'> & { detail: () => string }): void {
  onTestFinished(({ task }) => {
    const ok = task.result?.state === 'pass';
    const failure = task.result?.errors?.[0]?.message?.split('\n')[0]?.slice(0, 160);
    const written: AgentClientCell = {
      client: cell.client,
      version: cell.version,
      route: cell.route,
      ok,
      detail: ok ? cell.detail() : `failed: ${failure ?? 'unknown'}`,
    };
    mkdirSync(AGENT_CLIENT_CELLS_DIR, { recursive: true });
    writeFileSync(
      `${AGENT_CLIENT_CELLS_DIR}${slug(cell.client)}--${slug(cell.route)}.json`,
      `${JSON.stringify(written, null, 2)}\n`,
    );
  });
}
