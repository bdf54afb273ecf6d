import { testkitFixtures } from '@switchyard/testkit';
import { describe, expect, it } from 'vitest';
import { dropPromptFilterChunks, mapAzureError } from '../src/index.js';

const fixtures = testkitFixtures();

describe('mapAzureError', () => {
  it('turns the recorded content-filter refusal into a 400 content_filter error naming the blocked category', () => {
    const error = mapAzureError('azure', 400, fixtures.text('azure/azure-content-filter-error.json'), {}, ['secret']);
    expect(error.status).toBe(400);
    expect(error.toJSON()).toEqual({
      error: {
        type: 'invalid_request_error',
        code: 'content_filter',
        param: 'prompt',
        message: expect.stringMatching(
          /^The response was filtered due to the prompt triggering Azure OpenAI's content management policy\..* Filtered: self_harm \(medium\)\.$/s,
        ),
      },
    });
  });

  it('recognises a filter refusal by its innererror alone', () => {
    const body = JSON.stringify({
      error: {
        message: 'blocked',
        code: 'something',
        innererror: { code: 'ResponsibleAIPolicyViolation', content_filter_result: { violence: { filtered: true } } },
      },
    });
    const error = mapAzureError('azure', 400, body, {}, []);
    expect(error.code).toBe('content_filter');
    expect(error.message).toBe('blocked Filtered: violence.');
  });

  it('passes x-ms-retry-after-ms on as retry-after-ms and keeps retry-after', () => {
    const body = JSON.stringify({
      error: { code: '429', message: 'Requests to the ChatCompletions_Create Operation have exceeded the rate limit.' },
    });
    const error = mapAzureError('azure', 429, body, { 'x-ms-retry-after-ms': '1500', 'retry-after': '2' }, []);
    expect(error.status).toBe(429);
    expect(error.headers).toEqual({ 'retry-after-ms': '1500', 'retry-after': '2' });
    expect(error.isRetryable).toBe(true);
  });

  it('redacts the key from messages', () => {
    const error = mapAzureError(
      'azure',
      401,
      JSON.stringify({ error: { code: '401', message: 'Access denied for key azure-secret-key-123' } }),
      {},
      ['azure-secret-key-123'],
    );
    expect(error.message).not.toContain('azure-secret-key-123');
  });
});

describe('dropPromptFilterChunks', () => {
  it("drops Azure's prompt-filter preamble and keeps content and the usage chunk", async () => {
    const lines = fixtures.chunkLines('azure/azure-model-router.1.chunks.txt').map((l) => JSON.parse(l));
    async function* source() {
      yield* lines;
    }
    const out = [];
    for await (const chunk of dropPromptFilterChunks(source())) out.push(chunk);
    expect(out).toHaveLength(lines.length - 1);
    expect(new Set(out.map((c) => c.id))).toEqual(new Set(['chatcmpl-CYPS1lijGoK8gd9lYzY3r9Sx50nbt']));
    expect(out.at(-1)?.usage?.total_tokens).toBe(93);
  });
});
