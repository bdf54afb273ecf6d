import type { ServerSentEvent } from '@switchyard/core';
import { testkitFixtures } from '@switchyard/testkit';
import { describe, expect, it } from 'vitest';
import { convertGeminiResponse } from '../src/convert-gemini-response.js';
import { convertGeminiStream } from '../src/convert-gemini-stream.js';
import { convertToGeminiRequest } from '../src/convert-to-gemini-request.js';
import { geminiGenerateContentResponseSchema } from '../src/gemini-api.js';

const recorded = geminiGenerateContentResponseSchema.parse(
  testkitFixtures().json('google/unary-success-google-search-grounding.json'),
);

describe('Google Search grounding', () => {
  it('sends web_search_options as the googleSearch tool, next to function declarations, warning about its fields', () => {
    const warnings: { param?: string }[] = [];
    const body = convertToGeminiRequest(
      {
        model: 'gemini-2.5-flash',
        messages: [{ role: 'user', content: 'Weather?' }],
        web_search_options: { search_context_size: 'low' },
        tools: [{ type: 'function', function: { name: 'f', parameters: { type: 'object' } } }],
      } as never,
      warnings as never,
    );
    expect(body.tools).toEqual([
      { googleSearch: {} },
      { functionDeclarations: [{ name: 'f', parameters: { type: 'object' } }] },
    ]);
    expect(warnings.map((w) => w.param)).toEqual(['web_search_options.search_context_size']);
  });

  it('maps a recorded grounded answer to web_search_calls and url_citation annotations with UTF-16 offsets', () => {
    const completion = convertGeminiResponse(recorded, 'gemini-2.5-flash');
    const message = completion.choices[0]!.message;
    const text = message.content!;
    expect(message.web_search_calls).toEqual([
      { id: expect.stringMatching(/^gs_.+_0_0$/), query: 'current weather in London' },
    ]);
    const annotations = message.annotations as {
      url_citation: { start_index: number; end_index: number; url: string; title: string };
    }[];
    expect(annotations).toHaveLength(3);
    // Gemini's segments are UTF-8 byte offsets; the annotations cite exactly the sentences (four `°` before the last).
    expect(annotations.map((a) => text.slice(a.url_citation.start_index, a.url_citation.end_index))).toEqual([
      'The current weather in London, United Kingdom is cloudy.',
      'The temperature is 67°F (19°C), but it feels like 75°F (24°C).',
      'There is a 0% chance of rain, and the humidity is around 41%.',
    ]);
    expect(annotations[0]!.url_citation).toMatchObject({
      url: expect.stringContaining('vertexaisearch.cloud.google.com'),
      title: 'accuweather.com',
    });
    expect(annotations[1]!.url_citation.title).toBe('Weather information for locality: London');
  });

  it('streams the citations after the text and the searches after them, before the finish reason', async () => {
    const candidate = recorded.candidates![0]!;
    const text = candidate.content!.parts![0]!.text!;
    const cut = 70;
    const events = [
      {
        candidates: [{ content: { role: 'model', parts: [{ text: text.slice(0, cut) }] }, index: 0 }],
        responseId: 'r1',
      },
      {
        candidates: [
          {
            content: { role: 'model', parts: [{ text: text.slice(cut) }] },
            index: 0,
            finishReason: 'STOP',
            groundingMetadata: candidate.groundingMetadata,
          },
        ],
        responseId: 'r1',
      },
    ];
    async function* sse(): AsyncGenerator<ServerSentEvent> {
      for (const event of events) yield { data: JSON.stringify(event) } as ServerSentEvent;
    }
    const chunks = [];
    for await (const chunk of convertGeminiStream(sse(), 'google', 'gemini-2.5-flash', new AbortController().signal))
      chunks.push(chunk);
    const deltas = chunks.flatMap((c) =>
      c.choices.map((choice) => ({ ...choice.delta, finish: choice.finish_reason })),
    );
    const kinds = deltas.map((d) =>
      d.content ? 'text' : d.annotations ? 'annotations' : d.finish ? 'finish' : 'other',
    );
    expect(kinds).toEqual(['text', 'text', 'annotations', 'finish']);
    const grounding = deltas[2]!;
    expect(grounding.web_search_calls).toEqual([{ id: 'gs_r1_0_0', query: 'current weather in London' }]);
    const streamed = deltas.map((d) => d.content ?? '').join('');
    const cited = (grounding.annotations as { url_citation: { start_index: number; end_index: number } }[]).map((a) =>
      streamed.slice(a.url_citation.start_index, a.url_citation.end_index),
    );
    expect(cited[1]).toBe('The temperature is 67°F (19°C), but it feels like 75°F (24°C).');
  });
});
