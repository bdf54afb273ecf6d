import { testkitFixtures } from '@switchyard/testkit';
import { describe, expect, it } from 'vitest';
import {
  convertBedrockImageResponse,
  convertConverseResponse,
  convertToBedrockImageRequest,
  planBedrockEmbeddings,
} from '../src/index.js';

describe('planBedrockEmbeddings', () => {
  it('Titan v2: one call per input with dimensions and normalize; vectors and token counts from each answer', () => {
    const calls = planBedrockEmbeddings({ model: 'amazon.titan-embed-text-v2:0', input: ['a', 'b'], dimensions: 512 });
    expect(calls.map((c) => c.body)).toEqual([
      { inputText: 'a', dimensions: 512, normalize: true },
      { inputText: 'b', dimensions: 512, normalize: true },
    ]);
    expect(calls[0]!.schema.parse({ embedding: [0.6, 0.8], inputTextTokenCount: 1 })).toEqual({
      vectors: [[0.6, 0.8]],
      tokens: 1,
    });
    expect(calls[0]!.schema.parse({ embedding: [], inputTextTokenCount: 7 }).tokens).toBe(7);
    // A malformed answer is refused, not read as an empty vector or a made-up count.
    expect(calls[0]!.schema.safeParse({ embeddings: [0.6] }).success).toBe(false);
    expect(calls[0]!.schema.safeParse({ embedding: [0.6], inputTextTokenCount: -1 }).success).toBe(false);
  });

  it('Titan v2 refuses a dimension it cannot give; v1 refuses dimensions at all', () => {
    expect(() => planBedrockEmbeddings({ model: 'amazon.titan-embed-text-v2:0', input: 'a', dimensions: 300 })).toThrow(
      expect.objectContaining({ param: 'dimensions' }),
    );
    expect(() => planBedrockEmbeddings({ model: 'amazon.titan-embed-text-v1', input: 'a', dimensions: 256 })).toThrow(
      expect.objectContaining({ param: 'dimensions' }),
    );
    expect(planBedrockEmbeddings({ model: 'amazon.titan-embed-text-v1', input: 'a' })[0]!.body).toEqual({
      inputText: 'a',
    });
  });

  it('Cohere: the whole batch in one call, float vectors read from either answer shape', () => {
    const [call, ...rest] = planBedrockEmbeddings({
      model: 'us.cohere.embed-multilingual-v3',
      input: ['x', 'y'],
      input_type: 'search_query',
    } as never);
    expect(rest).toEqual([]);
    expect(call!.body).toEqual({ texts: ['x', 'y'], input_type: 'search_query', embedding_types: ['float'] });
    expect(call!.schema.parse({ embeddings: { float: [[1], [2]] } }).vectors).toEqual([[1], [2]]);
    expect(call!.schema.parse({ embeddings: [[3], [4]] }).vectors).toEqual([[3], [4]]);
    expect(call!.schema.safeParse({ embeddings: [['3']] }).success).toBe(false);
  });

  it('refuses token arrays and models it does not know', () => {
    expect(() => planBedrockEmbeddings({ model: 'amazon.titan-embed-text-v2:0', input: [1, 2, 3] })).toThrow(
      expect.objectContaining({ param: 'input' }),
    );
    expect(() => planBedrockEmbeddings({ model: 'meta.llama3-8b-instruct-v1:0', input: 'a' })).toThrow(
      expect.objectContaining({ param: 'model' }),
    );
  });
});

describe('Bedrock image generation', () => {
  it('builds a TEXT_IMAGE request with size, n and quality', () => {
    expect(
      convertToBedrockImageRequest({
        model: 'amazon.titan-image-generator-v2:0',
        prompt: 'a cat',
        n: 3,
        size: '512x768',
        quality: 'hd',
      }),
    ).toEqual({
      taskType: 'TEXT_IMAGE',
      textToImageParams: { text: 'a cat' },
      imageGenerationConfig: { numberOfImages: 3, width: 512, height: 768, quality: 'premium' },
    });
    expect(() => convertToBedrockImageRequest({ model: 'stability.sd3-large-v1:0', prompt: 'x' })).toThrow(
      expect.objectContaining({ param: 'model' }),
    );
  });

  it('returns b64_json images, and a blocked image as 400 content_filter', () => {
    expect(convertBedrockImageResponse({ images: ['AAAA'] }).data).toEqual([{ b64_json: 'AAAA' }]);
    expect(() =>
      convertBedrockImageResponse({ images: [], error: 'This request has been blocked by our content filters.' }),
    ).toThrow(expect.objectContaining({ status: 400, code: 'content_filter' }));
  });
});

describe('convertConverseResponse', () => {
  it('joins text and turns toolUse blocks into tool_calls with JSON arguments', () => {
    const completion = convertConverseResponse(
      testkitFixtures().json('amazon-bedrock/amazon-bedrock-json-with-tool.1.json'),
      'm',
      'req-9',
    );
    expect(completion.id).toBe('chatcmpl-req-9');
    expect(completion.choices[0]!.message.content).toBe('Let me call a tool first.Now the JSON.');
    expect(completion.choices[0]!.message.tool_calls).toEqual([
      { id: 'tool-1', type: 'function', function: { name: 'get-weather', arguments: '{"location":"SF"}' } },
      { id: 'json-tool-id', type: 'function', function: { name: 'json', arguments: '{"result":"data"}' } },
    ]);
    expect(completion.choices[0]!.finish_reason).toBe('tool_calls');
    expect(completion.usage).toEqual({ prompt_tokens: 22, completion_tokens: 48, total_tokens: 70 });
  });
});
