import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { readAgentClientCells } from './agent-client-cell.js';
import { renderAgentClientTable, replaceAgentClientTable } from './render-agent-clients.js';

/**
 * `switchyard-agent-clients --cells DIR --out FILE`: reads the cell files the real-client e2e tests wrote in DIR and
 * writes the client-by-route table into FILE between its markers (the rest of FILE is kept). Exits 1 when a cell
 * failed, 2 when DIR holds no cells (the tests did not run) or on bad use.
 */
export function runAgentClientsCli(argv: string[]): number {
  const { values } = parseArgs({ args: argv, options: { cells: { type: 'string' }, out: { type: 'string' } } });
  if (!values.cells || !values.out) {
    process.stderr.write('usage: switchyard-agent-clients --cells DIR --out FILE\n');
    return 2;
  }
  const cells = readAgentClientCells(values.cells);
  if (cells.length === 0) {
    process.stderr.write(`switchyard-agent-clients: no cells in ${values.cells}: run the gateway's e2e tests first.\n`);
    return 2;
  }
  const before = existsSync(values.out)
    ? readFileSync(values.out, 'utf8')
    : '# Coding agents and SDKs through Switchyard\n';
  writeFileSync(values.out, replaceAgentClientTable(before, renderAgentClientTable(cells)));
  const failed = cells.filter((cell) => !cell.ok);
  process.stdout.write(
    `switchyard-agent-clients: ${cells.length} cells, ${failed.length} failed; wrote ${values.out}\n`,
  );
  for (const cell of failed) process.stderr.write(`  failed: ${cell.client} on ${cell.route}: ${cell.detail}\n`);
  return failed.length > 0 ? 1 : 0;
}
