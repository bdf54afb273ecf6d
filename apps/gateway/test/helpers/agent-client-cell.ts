import { mkdir, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

/** One cell of the agent-client matrix (`docs/agent-clients.md`): a real client on one route, from a test that ran. */
export interface AgentClientCell {
  /** The client's name, e.g. `Claude Code`. */
  client: string;
  /** The client's version as pinned, e.g. `2.1.332`. */
  version: string;
  /** The route, e.g. `Anthropic pass-through`. */
  route: string;
  /** Whether the test passed. */
  ok: boolean;
  /** What it showed, e.g. `exit 0, 2 turns`. */
  detail: string;
}

const DIR = fileURLToPath(new URL('../../test-output/agent-clients/', import.meta.url));

/** A name's slug: lower case, runs of other characters as one `-`. */
function slug(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
}

/**
 * Writes `cell` to `apps/gateway/test-output/agent-clients/<client-slug>--<route-slug>.json` (the shared format the
 * matrix generator reads), replacing an earlier run's file.
 */
export async function writeAgentClientCell(cell: AgentClientCell): Promise<void> {
  await mkdir(DIR, { recursive: true });
  await writeFile(`${DIR}${slug(cell.client)}--${slug(cell.route)}.json`, `${JSON.stringify(cell, null, 2)}\n`);
}

/**
 * Runs `test` and writes its cell: `ok` true with `detail()`'s text when it passes, else false with the failure's
 * first line; the failure is rethrown.
 */
export async function recordAgentClientCell(cell: Omit<AgentClientCell, 'ok' | 'detail'>, test: () => Promise<string>): Promise<void> {
  let detail: string;
  try {
    detail = await test();
  } catch (error) {
    await writeAgentClientCell({ ...cell, ok: false, detail: String((error as Error)?.message ?? error).split('\n')[0]!.slice(0, 200) });
    throw error;
  }
  await writeAgentClientCell({ ...cell, ok: true, detail });
}
