import type { ConformanceResult } from './conformance-result.js';

/** A column of the matrix: its heading and the conformance tests (by title) that decide its cells. */
export interface ConformanceCapability {
  heading: string;
  titles: RegExp;
  /**
   * Tests that check the capability is refused (400 naming the field) or reported with a warning because the adapter
   * does not have it. When only these ran and passed, the cell says "not supported", never ✅.
   */
  notSupportedTitles?: RegExp;
  /**
   * Tests that check the capability is served another way (legacy completions translated through chat): when only these
   * ran and passed, the cell says {@link viaLabel}.
   */
  viaTitles?: RegExp;
  /** The cell of an adapter that only passed {@link viaTitles}, e.g. `via chat`. */
  viaLabel?: string;
}

/** The matrix columns, each decided by the suite's tests of that capability (see describeAdapterConformance). */
export const CONFORMANCE_CAPABILITIES: readonly ConformanceCapability[] = [
  { heading: 'chat', titles: /^translates a completion/ },
  { heading: 'streaming', titles: /^translates a stream chunk by chunk/ },
  { heading: 'usage in streams', titles: /^translates a stream chunk by chunk: .*usage/ },
  { heading: 'tools', titles: /^calls tools/, notSupportedTitles: /^tools: not supported/ },
  { heading: 'vision', titles: /^sends images \(vision\)/, notSupportedTitles: /^vision: not supported/ },
  {
    heading: 'JSON output',
    titles: /^asks for JSON output/,
    notSupportedTitles: /^JSON output \(json_\w+\): not supported/,
  },
  {
    heading: 'mid-stream failure',
    titles:
      /^throws, rather than ending quietly|^ends with an error, never a clean finish|^ends with the upstream's error/,
  },
  { heading: 'reasoning', titles: /^streams reasoning|^round-trips reasoning_details/ },
  { heading: 'embeddings', titles: /^translates embeddings/, notSupportedTitles: /^embeddings: not supported/ },
  {
    heading: 'transcriptions',
    titles: /^translates a transcription/,
    notSupportedTitles: /^transcriptions: not supported/,
  },
  {
    heading: 'translations',
    titles: /^translates an audio translation/,
    notSupportedTitles: /^audio translations: not supported/,
  },
  { heading: 'speech', titles: /^translates speech/, notSupportedTitles: /^speech: not supported/ },
  {
    heading: 'images',
    titles: /^translates an image generation/,
    notSupportedTitles: /^image generations: not supported/,
  },
  { heading: 'moderations', titles: /^translates a moderation/, notSupportedTitles: /^moderations: not supported/ },
  {
    heading: 'legacy completions',
    titles: /^translates a legacy completion .*\(native pass-through\)/,
    viaTitles: /^translates a legacy completion through chat/,
    viaLabel: 'via chat',
  },
  { heading: 'image edits', titles: /^translates an image edit/, notSupportedTitles: /^image edits: not supported/ },
  {
    heading: 'image variations',
    titles: /^translates an image variation/,
    notSupportedTitles: /^image variations: not supported/,
  },
  { heading: 'native batches', titles: /^native batches:/ },
  { heading: 'error mapping', titles: /maps an upstream error/ },
  { heading: 'abort', titles: /stops at once and closes the upstream request when aborted/ },
];

const SUITE_PREFIX = 'adapter conformance: ';

/** The variant a test title names in parentheses (e.g. `json_schema`), else the whole title. */
function variantOf(result: ConformanceResult): string {
  return /\(([^)]+)\)/.exec(result.title)?.[1] ?? result.title;
}

/** The adapter's name from a suite title: `adapter conformance: groq (preset, ...)` -> `groq (preset, ...)`. */
export function adapterOfSuite(suiteTitle: string): string | undefined {
  return suiteTitle.startsWith(SUITE_PREFIX) ? suiteTitle.slice(SUITE_PREFIX.length) : undefined;
}

/**
 * Renders the conformance matrix as Markdown: one row per adapter (sorted by name), one column per capability. A cell
 * is ✅ when every test of that capability ran and passed, ❌ when one failed, "not supported" when the tests that ran
 * checked that the adapter refuses it (or reports it with a warning), "✅ a; not b" when part of it is supported, and
 * empty when the adapter has no such test (it does not serve the operation, or gave no recording for it). Only tests that ran count; skipped ones
 * are ignored.
 */
export function renderConformanceMatrix(
  results: readonly ConformanceResult[],
  capabilities: readonly ConformanceCapability[] = CONFORMANCE_CAPABILITIES,
): string {
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
      const refused = capability.notSupportedTitles
        ? tests.filter((t) => capability.notSupportedTitles!.test(t.title))
        : [];
      const via = capability.viaTitles ? tests.filter((t) => capability.viaTitles!.test(t.title)) : [];
      if (matching.length === 0 && refused.length === 0 && via.length > 0)
        return via.every((t) => t.status === 'passed') ? (capability.viaLabel ?? '✅') : '❌';
      if (matching.length === 0 && refused.length === 0) return '';
      if (![...matching, ...refused].every((t) => t.status === 'passed')) return '❌';
      if (refused.length === 0) return '✅';
      if (matching.length === 0) return 'not supported';
      return `✅ ${matching.map(variantOf).join(', ')}; not ${refused.map(variantOf).join(', ')}`;
    });
    const passed = tests.filter((t) => t.status === 'passed').length;
    return `| ${adapter.replaceAll('|', '\\|')} | ${cells.join(' | ')} | ${passed}/${tests.length} |`;
  });
  return [header, rule, ...rows].join('\n');
}
