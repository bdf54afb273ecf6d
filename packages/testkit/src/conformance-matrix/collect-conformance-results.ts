import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { ConformanceResult } from './conformance-result.js';
import { adapterOfSuite } from './render-conformance-matrix.js';

/** Vitest's JSON report, the parts read here. @see https://vitest.dev/guide/reporters#json-reporter */
interface VitestJsonReport {
  testResults?: { assertionResults?: { ancestorTitles?: string[]; title: string; status: string }[] }[];
}

/** The conformance test files of a package: `test/*conformance*.test.ts`. */
export function conformanceTestFiles(packageDir: string): string[] {
  const testDir = join(packageDir, 'test');
  if (!existsSync(testDir)) return [];
  return readdirSync(testDir)
    .filter((name) => /conformance.*\.test\.[cm]?[jt]s$/.test(name))
    .map((name) => join('test', name));
}

/** The results of one vitest JSON report that belong to a conformance suite (`adapter conformance: <name>`). */
export function conformanceResultsOf(report: VitestJsonReport): ConformanceResult[] {
  const results: ConformanceResult[] = [];
  for (const file of report.testResults ?? []) {
    for (const test of file.assertionResults ?? []) {
      const adapter = (test.ancestorTitles ?? []).map(adapterOfSuite).find((name) => name !== undefined);
      if (!adapter) continue;
      const status = test.status === 'passed' ? 'passed' : test.status === 'failed' ? 'failed' : 'skipped';
      results.push({ adapter, title: test.title, status });
    }
  }
  return results;
}

/**
 * Runs the conformance test files of `packageDir` with the package's own vitest (`node_modules/.bin/vitest run
 * <files> --reporter=json`) and returns the results of the tests that ran. Vitest's exit code is not an error here:
 * failed tests are results. Throws when the package has conformance files but no vitest, or vitest wrote no report.
 */
export function collectConformanceResults(packageDir: string): ConformanceResult[] {
  const dir = resolve(packageDir);
  const files = conformanceTestFiles(dir);
  if (files.length === 0) return [];
  const vitest = join(dir, 'node_modules', '.bin', 'vitest');
  if (!existsSync(vitest))
    throw new Error(`${dir}: has conformance tests but no node_modules/.bin/vitest (install its dev dependencies).`);
  const out = mkdtempSync(join(tmpdir(), 'switchyard-conformance-'));
  try {
    const report = join(out, 'report.json');
    spawnSync(vitest, ['run', ...files, '--reporter=json', `--outputFile=${report}`], {
      cwd: dir,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    if (!existsSync(report)) throw new Error(`${dir}: vitest wrote no report (see its output above).`);
    return conformanceResultsOf(JSON.parse(readFileSync(report, 'utf8')) as VitestJsonReport);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}
