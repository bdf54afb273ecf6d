import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * One cell of the agent-client matrix, as an e2e test of a real client writes it when it finishes
 * (`<client-slug>--<route-slug>.json`): the client with its version, the route, whether the test passed, what it saw.
 * @example {"client": "Codex CLI", "version": "0.171.0", "route": "Anthropic (translated)", "ok": true, "detail": "exit 0, 2 turns"}
 */
export interface AgentClientCell {
  client: string;
  version: string;
  route: string;
  ok: boolean;
  detail: string;
}

/** `value` as a cell, or the name of the first field that is missing or of the wrong type. */
export function parseAgentClientCell(value: unknown): { cell: AgentClientCell } | { invalid: string } {
  if (!value || typeof value !== 'object') return { invalid: 'not an object' };
  const record = value as Record<string, unknown>;
  for (const field of ['client', 'version', 'route', 'detail'] as const) {
    if (typeof record[field] !== 'string' || (field !== 'detail' && record[field] === ''))
      return { invalid: `'${field}' must be a non-empty string` };
  }
  if (typeof record.ok !== 'boolean') return { invalid: "'ok' must be a boolean" };
  const { client, version, route, ok, detail } = record as unknown as AgentClientCell;
  return { cell: { client, version, route, ok, detail } };
}

/**
 * Every `*.json` cell file in `dir`, sorted by file name. Throws naming the file when one is not a cell (bad JSON or a
 * missing field); a missing directory gives no cells.
 */
export function readAgentClientCells(dir: string): AgentClientCell[] {
  let files: string[];
  try {
    files = readdirSync(dir)
      .filter((name) => name.endsWith('.json'))
      .sort();
  } catch {
    return [];
  }
  return files.map((name) => {
    const parsed = parseAgentClientCell(JSON.parse(readFileSync(join(dir, name), 'utf8')));
    if ('invalid' in parsed) throw new Error(`${join(dir, name)} is not an agent-client cell: ${parsed.invalid}`);
    return parsed.cell;
  });
}
