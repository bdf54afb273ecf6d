import { readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import madge from 'madge';
import { describe, expect, it } from 'vitest';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const tsConfig = join(root, 'tsconfig.base.json');

/** The import graph of a source directory (type-only imports included: they knot the code as much as values). */
function graphOf(dir: string) {
  return madge(join(root, dir), { fileExtensions: ['ts'], tsConfig });
}

/** A cycle in a directed graph given as adjacency sets, or undefined (depth-first search). */
function findCycle(graph: Map<string, Set<string>>): string[] | undefined {
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (node: string): string[] | undefined => {
    if (state.get(node) === 'done') return undefined;
    if (state.get(node) === 'open') return [...path.slice(path.indexOf(node)), node];
    state.set(node, 'open');
    path.push(node);
    for (const next of graph.get(node) ?? []) {
      const cycle = visit(next);
      if (cycle) return cycle;
    }
    path.pop();
    state.set(node, 'done');
    return undefined;
  };
  for (const node of graph.keys()) {
    const cycle = visit(node);
    if (cycle) return cycle;
  }
  return undefined;
}

const sources = [...readdirSync(join(root, 'packages')).map((name) => `packages/${name}/src`), 'apps/gateway/src'];

describe('the import graph', () => {
  it.each(sources)(
    '%s has no import cycle',
    async (dir) => {
      const graph = await graphOf(dir);
      expect(Object.keys(graph.obj()).length).toBeGreaterThan(0);
      expect(graph.circular()).toEqual([]);
    },
    60_000,
  );

  it("core's folders import each other without a cycle (schemas, errors, utils, adapter, model, routing, cache, gateway)", async () => {
    const graph = await graphOf('packages/core/src');
    const folders = new Map<string, Set<string>>();
    for (const [file, imports] of Object.entries(graph.obj())) {
      const from = file.includes('/') ? file.split('/')[0]! : '.';
      for (const imported of imports) {
        const to = imported.includes('/') ? imported.split('/')[0]! : '.';
        if (from !== to) folders.set(from, (folders.get(from) ?? new Set()).add(to));
      }
    }
    expect(folders.size).toBeGreaterThan(6);
    expect(findCycle(folders)).toBeUndefined();
  }, 60_000);
});
