import type { ConformanceResult } from './conformance-result.js';

/** A column of the matrix: its heading and the conformance tests (by title) that decide its cells. */
export interface ConformanceCapability {
  heading: string;
  titles: RegExp;
}

/** The matrix columns, each decided by the suite's tests of that capability (see describeAdapterConformance). */
export const CONFORMANCE_CAPABILITIES: readonly ConformanceCapability[] = [
  { heading: 'chat', titles: /^translates a completion/ },
  { heading: 'streaming', titles: /^translates a stream chunk by chunk/ },
  { heading: 'usage in streams', titles: /^translates a stream chunk by chunk: .*usage/ },
  { heading: 'mid-stream failure', titles: /^throws, rather than ending quietly|^ends with an error, never a clean finish|^ends with the upstream's error/ },
  { heading: 'reasoning', titles: /^streams reasoning|^round-trips reasoning_details/ },
  { heading: 'embeddings', titles: /^translates embeddings/ },
  { heading: 'transcriptions', titles: /^translates a transcription/ },
  { heading: 'speech', titles: /^translates speech/ },
  { heading: 'images', titles: /^translates an image generation/ },
  { heading: 'error mapping', titles: /maps an upstream error/ },
  { heading: 'abort', titles: /stops at once and closes the upstream request when aborted/ },
];

const SUITE_PREFIX = 'adapter conformance: ';

/** The adapter's name from a suite title: `adapter conformance: groq (preset, ...)` -> `groq (preset, ...)`. */
export function adapterOfSuite(suiteTitle: string): string | undefined {
  return suiteTitle.startsWith(SUITE_PREFIX) ? suiteTitle.slice(SUITE_PREFIX.length) : undefined;
}

/**
 * Renders the conformance matrix as Markdown: one row per adapter (sorted by name), one column per capability. A cell
 * is ✅ when every test of that capability ran and passed, ❌ when one failed, and empty when the adapter has no
 * such test (it does not serve the operation, or gave no recording for it). Only tests that ran count; skipped ones
 * are ignored.
 */
export function renderConformanceMatrix(results: readonly ConformanceResult[], capabilities: readonly ConformanceCapability[] = CONFORMANCE_CAPABILITIES): string {
  const byAdapter = new Map<string, ConformanceResult[]>();
  for (const result of results) {
    if (result.status === 'skipped') continue;
    const list = byAdapter.get(result.adapter) ?? [];
    list.push(result);
    byAdapter.set(result.adapter, list);
  }
  const header = `| adapter | ${capabilities.map((c) => c.heading).join(' | ')} | tests |`;
  const rule = `|---|${capabilities.map(() => ':---:').join('|')}|---:|`;
  const rows = [...byAdapter.keys()].sort().map((adapter) => {
    const tests = byAdapter.get(adapter)!;
    const cells = capabilities.map((capability) => {
      const matching = tests.filter((t) => capability.titles.test(t.title));
      if (matching.length === 0) return '';
      return matching.every((t) => t.status === 'passed') ? '✅' : '❌';
    });
    const passed = tests.filter((t) => t.status === 'passed').length;
    return `| ${adapter.replaceAll('|', '\\|')} | ${cells.join(' | ')} | ${passed}/${tests.length} |`;
  });
  return [header, rule, ...rows].join('\n');
}
