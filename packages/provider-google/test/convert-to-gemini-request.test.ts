import type { ChatCompletionRequest } from '@switchyard/core';
import { describe, expect, it } from 'vitest';
import { cleanJsonSchema, convertToGeminiRequest, encodeToolCallId } from '../src/index.js';

const req = (extra: Partial<ChatCompletionRequest>): ChatCompletionRequest => ({
  model: 'gemini-2.5-flash',
  messages: [{ role: 'user', content: 'hi' }],
  ...extra,
});

describe('convertToGeminiRequest', () => {
  it('maps roles: system/developer -> systemInstruction, assistant -> model, merging consecutive turns', () => {
    const body = convertToGeminiRequest(
      req({
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'developer', content: 'Answer in English.' },
          { role: 'user', content: 'One' },
          { role: 'user', content: 'Two' },
          { role: 'assistant', content: 'Ok' },
        ],
      }),
    );
    expect(body.systemInstruction).toEqual({ parts: [{ text: 'Be brief.\n\nAnswer in English.' }] });
    expect(body.contents).toEqual([
      { role: 'user', parts: [{ text: 'One' }, { text: 'Two' }] },
      { role: 'model', parts: [{ text: 'Ok' }] },
    ]);
  });

  it('maps images: data URLs -> inlineData, URLs -> fileData', () => {
    const body = convertToGeminiRequest(
      req({
        messages: [
          {
            role: 'user',
            content: [
              { type: 'image_url', image_url: { url: 'data:image/jpeg;base64,/9j/4AAQ' } },
              { type: 'image_url', image_url: { url: 'https://x.test/cat.png' } },
            ],
          },
        ],
      }),
    );
    expect(body.contents[0]!.parts).toEqual([
      { inlineData: { mimeType: 'image/jpeg', data: '/9j/4AAQ' } },
      { fileData: { fileUri: 'https://x.test/cat.png', mimeType: 'image/png' } },
    ]);
  });

  it('maps sampling parameters into generationConfig', () => {
    const body = convertToGeminiRequest(
      req({
        temperature: 1.4,
        top_p: 0.8,
        max_completion_tokens: 100,
        stop: ['END'],
        n: 2,
        presence_penalty: 0.5,
        frequency_penalty: -0.5,
        seed: 3,
      }),
    );
    expect(body.generationConfig).toEqual({
      temperature: 1.4,
      topP: 0.8,
      maxOutputTokens: 100,
      stopSequences: ['END'],
      candidateCount: 2,
      presencePenalty: 0.5,
      frequencyPenalty: -0.5,
      seed: 3,
    });
    expect(convertToGeminiRequest(req({ max_tokens: 7 })).generationConfig).toEqual({ maxOutputTokens: 7 });
  });

  it('maps response_format json_object and json_schema (schema cleaned)', () => {
    expect(convertToGeminiRequest(req({ response_format: { type: 'json_object' } })).generationConfig).toEqual({
      responseMimeType: 'application/json',
    });
    const schema = {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      additionalProperties: false,
      properties: { city: { type: 'string', default: 'Paris' } },
      required: ['city'],
    };
    expect(
      convertToGeminiRequest(req({ response_format: { type: 'json_schema', json_schema: { name: 'x', schema } } }))
        .generationConfig,
    ).toEqual({
      responseMimeType: 'application/json',
      responseSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    });
  });

  it('maps tools and tool_choice', () => {
    const tools = [
      {
        type: 'function' as const,
        function: {
          name: 'weather',
          description: 'Weather',
          parameters: { type: 'object', additionalProperties: false, properties: { location: { type: 'string' } } },
        },
      },
    ];
    const body = convertToGeminiRequest(req({ tools, tool_choice: 'auto' }));
    expect(body.tools).toEqual([
      {
        functionDeclarations: [
          {
            name: 'weather',
            description: 'Weather',
            parameters: { type: 'object', properties: { location: { type: 'string' } } },
          },
        ],
      },
    ]);
    expect(body.toolConfig).toEqual({ functionCallingConfig: { mode: 'AUTO' } });
    expect(convertToGeminiRequest(req({ tools, tool_choice: 'none' })).toolConfig).toEqual({
      functionCallingConfig: { mode: 'NONE' },
    });
    expect(convertToGeminiRequest(req({ tools, tool_choice: 'required' })).toolConfig).toEqual({
      functionCallingConfig: { mode: 'ANY' },
    });
    expect(
      convertToGeminiRequest(req({ tools, tool_choice: { type: 'function', function: { name: 'weather' } } }))
        .toolConfig,
    ).toEqual({
      functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['weather'] },
    });
  });

  it('sends tool calls back as functionCall parts (with the Gemini 3 signature) and tool results as functionResponse parts', () => {
    const id = encodeToolCallId('SIGNATURE==');
    const body = convertToGeminiRequest(
      req({
        messages: [
          { role: 'user', content: 'Weather?' },
          {
            role: 'assistant',
            content: null,
            tool_calls: [{ id, type: 'function', function: { name: 'weather', arguments: '{"location":"SF"}' } }],
          },
          { role: 'tool', tool_call_id: id, content: '{"temperature":18}' },
          { role: 'tool', tool_call_id: id, content: 'plain text' },
        ],
      }),
    );
    expect(body.contents.slice(1)).toEqual([
      {
        role: 'model',
        parts: [{ functionCall: { name: 'weather', args: { location: 'SF' } }, thoughtSignature: 'SIGNATURE==' }],
      },
      {
        role: 'user',
        parts: [
          { functionResponse: { name: 'weather', response: { temperature: 18 } } },
          { functionResponse: { name: 'weather', response: { result: 'plain text' } } },
        ],
      },
    ]);
  });

  it('rejects a tool message that answers no known call, naming it', () => {
    expect(() =>
      convertToGeminiRequest(req({ messages: [{ role: 'tool', tool_call_id: 'nope', content: 'x' }] })),
    ).toThrow(expect.objectContaining({ status: 400, param: 'messages[0].tool_call_id' }));
  });

  it('cleans const into enum', () => {
    expect(cleanJsonSchema({ type: 'string', const: 'a' })).toEqual({ type: 'string', enum: ['a'] });
  });
});
