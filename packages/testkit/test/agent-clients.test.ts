import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AGENT_CLIENTS_BEGIN, AGENT_CLIENTS_END, runAgentClientsCli } from '../src/agent-clients/index.js';

const cell = (client: string, route: string, ok = true) => ({
  client,
  version: client === 'Codex CLI' ? '0.171.0' : '2.1.332',
  route,
  ok,
  detail: ok ? 'exit 0, 2 turns' : 'failed: exit 1',
});

function setUp(cells: object[], doc?: string): { cells: string; out: string } {
  const dir = mkdtempSync(join(tmpdir(), 'agent-clients-'));
  mkdirSync(join(dir, 'cells'));
  for (const [i, c] of cells.entries()) writeFileSync(join(dir, 'cells', `c${i}.json`), JSON.stringify(c));
  const out = join(dir, 'agent-clients.md');
  if (doc !== undefined) writeFileSync(out, doc);
  return { cells: join(dir, 'cells'), out };
}

describe('switchyard-agent-clients', () => {
  it('renders a client x route table between the markers and keeps the rest of the file', () => {
    const doc = `# Title\n\nBefore.\n\n${AGENT_CLIENTS_BEGIN}\nold table\n${AGENT_CLIENTS_END}\n\nAfter.\n`;
    const paths = setUp(
      [
        cell('Codex CLI', 'Anthropic (translated)'),
        cell('Claude Code', 'Anthropic pass-through'),
        cell('Codex CLI', 'OpenAI Responses pass-through'),
      ],
      doc,
    );
    expect(runAgentClientsCli(['--cells', paths.cells, '--out', paths.out])).toBe(0);
    const written = readFileSync(paths.out, 'utf8');
    expect(written).toContain('# Title\n\nBefore.\n\n');
    expect(written).toContain('\n\nAfter.\n');
    expect(written).not.toContain('old table');
    expect(written).toContain('3 cells from the e2e tests that ran, 0 failed.');
    expect(written).toContain(
      '| client | Anthropic pass-through | Anthropic (translated) | OpenAI Responses pass-through |',
    );
    expect(written).toContain('| Claude Code 2.1.332 | ✅ exit 0, 2 turns |  |  |');
    expect(written).toContain('| Codex CLI 0.171.0 |  | ✅ exit 0, 2 turns | ✅ exit 0, 2 turns |');
  });

  it('exits 1 with a ❌ cell when a test failed, and 2 when no test wrote a cell', () => {
    const failed = setUp([cell('Codex CLI', 'Anthropic (translated)', false)]);
    expect(runAgentClientsCli(['--cells', failed.cells, '--out', failed.out])).toBe(1);
    expect(readFileSync(failed.out, 'utf8')).toContain('| Codex CLI 0.171.0 | ❌ failed: exit 1 |');
    const none = setUp([]);
    expect(runAgentClientsCli(['--cells', none.cells, '--out', none.out])).toBe(2);
    expect(runAgentClientsCli(['--cells', join(none.cells, 'missing'), '--out', none.out])).toBe(2);
  });

  it('refuses a file that is not a cell, naming it', () => {
    const bad = setUp([{ client: 'Codex CLI', route: 'x', ok: 'yes' }]);
    expect(() => runAgentClientsCli(['--cells', bad.cells, '--out', bad.out])).toThrow(
      /c0\.json is not an agent-client cell: 'version'/,
    );
  });
});
