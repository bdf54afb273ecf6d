import { describe, expect, it } from 'vitest';
import {
  CONFORMANCE_CAPABILITIES,
  conformanceResultsOf,
  renderConformanceMatrix,
} from '../src/conformance-matrix/index.js';

describe('conformance matrix', () => {
  it('keeps only tests of conformance suites, with their adapter and outcome', () => {
    const report = {
      testResults: [
        {
          assertionResults: [
            {
              ancestorTitles: ['adapter conformance: groq (preset)'],
              title: 'translates a completion: shape',
              status: 'passed',
            },
            {
              ancestorTitles: ['adapter conformance: groq (preset)'],
              title: 'translates embeddings',
              status: 'failed',
            },
            {
              ancestorTitles: ['adapter conformance: groq (preset)'],
              title: 'translates speech and streams',
              status: 'pending',
            },
            { ancestorTitles: ['some other suite'], title: 'translates a completion: shape', status: 'passed' },
          ],
        },
      ],
    };
    expect(conformanceResultsOf(report)).toEqual([
      { adapter: 'groq (preset)', title: 'translates a completion: shape', status: 'passed' },
      { adapter: 'groq (preset)', title: 'translates embeddings', status: 'failed' },
      { adapter: 'groq (preset)', title: 'translates speech and streams', status: 'skipped' },
    ]);
  });

  it('renders ✅ for a capability whose tests all passed, ❌ when one failed, nothing when none ran', () => {
    const markdown = renderConformanceMatrix(
      [
        { adapter: 'b', title: 'translates a completion: shape', status: 'passed' },
        { adapter: 'b', title: 'maps an upstream error to its status', status: 'passed' },
        { adapter: 'b', title: 'transcription: maps an upstream error to its status', status: 'failed' },
        { adapter: 'a', title: 'translates speech and streams the audio back byte for byte', status: 'passed' },
        { adapter: 'a', title: 'translates embeddings', status: 'skipped' },
      ],
      [
        { heading: 'chat', titles: /^translates a completion/ },
        { heading: 'speech', titles: /^translates speech/ },
        { heading: 'embeddings', titles: /^translates embeddings/ },
        { heading: 'error mapping', titles: /maps an upstream error/ },
      ],
    );
    expect(markdown.split('\n')).toEqual([
      '| adapter | chat | speech | embeddings | error mapping | tests |',
      '|---|:---:|:---:|:---:|:---:|---:|',
      '| a |  | ✅ |  |  | 1/1 |',
      '| b | ✅ |  |  | ❌ | 2/3 |',
    ]);
  });

  it('says "not supported" when only refusal tests ran, and names the parts of a partly supported capability', () => {
    const markdown = renderConformanceMatrix(
      [
        {
          adapter: 'bedrock',
          title: 'calls tools: declares the tool natively, answers tool_calls, and sends the tool result back',
          status: 'passed',
        },
        {
          adapter: 'bedrock',
          title:
            "JSON output (json_schema): not supported - refused with a 400 naming 'response_format', or dropped with a warning",
          status: 'passed',
        },
        {
          adapter: 'bedrock',
          title:
            "JSON output (json_object): not supported - refused with a 400 naming 'response_format', or dropped with a warning",
          status: 'passed',
        },
        {
          adapter: 'mixed',
          title: 'asks for JSON output (json_schema): the schema reaches the upstream',
          status: 'passed',
        },
        {
          adapter: 'mixed',
          title:
            "JSON output (json_object): not supported - refused with a 400 naming 'response_format', or dropped with a warning",
          status: 'passed',
        },
        {
          adapter: 'mixed',
          title: "tools: not supported - refused with a 400 naming 'tools', or dropped with a warning",
          status: 'failed',
        },
      ],
      CONFORMANCE_CAPABILITIES.filter((c) => ['tools', 'JSON output'].includes(c.heading)),
    );
    expect(markdown.split('\n').slice(2)).toEqual([
      '| bedrock | ✅ | not supported | 3/3 |',
      '| mixed | ❌ | ✅ json_schema; not json_object | 2/3 |',
    ]);
  });

  it('shows operations the gateway refuses as "not supported" and native batches only where they ran', () => {
    const passed = 'passed' as const;
    const markdown = renderConformanceMatrix(
      [
        { adapter: 'openai', title: 'translates an image variation and sends the image', status: passed },
        { adapter: 'openai', title: 'native batches: cancels a batch (cancelling, then cancelled)', status: passed },
        {
          adapter: 'vertex',
          title: 'image variations: not supported (the gateway answers 400 unsupported_operation)',
          status: passed,
        },
        { adapter: 'vertex', title: 'translates a completion: shape', status: passed },
      ],
      CONFORMANCE_CAPABILITIES.filter((c) => ['image variations', 'native batches'].includes(c.heading)),
    );
    expect(markdown.split('\n')).toEqual([
      '| adapter | image variations | native batches | tests |',
      '|---|:---:|:---:|---:|',
      '| openai | ✅ | ✅ | 2/2 |',
      '| vertex | not supported |  | 2/2 |',
    ]);
  });
});
