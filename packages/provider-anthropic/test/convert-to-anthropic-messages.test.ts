import type { ChatCompletionMessage } from '@switchyard/core';
import { describe, expect, it } from 'vitest';
import { convertToAnthropicMessages } from '../src/index.js';

const convert = (messages: unknown[]) => convertToAnthropicMessages(messages as ChatCompletionMessage[]);
const rejects = (messages: unknown[], param: string) =>
  expect(() => convert(messages)).toThrow(expect.objectContaining({ status: 400, param }));

describe('system and developer messages', () => {
  it('become the top-level system text, in order, wherever they are', () => {
    const out = convert([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Hi' },
      {
        role: 'developer',
        content: [
          { type: 'text', text: 'Use ' },
          { type: 'text', text: 'English.' },
        ],
      },
    ]);
    expect(out.system).toBe('Be brief.\n\nUse English.');
    expect(out.messages).toEqual([{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }]);
  });

  it('leave no system field when there is none or it is blank', () => {
    expect(
      convert([
        { role: 'system', content: '  ' },
        { role: 'user', content: 'Hi' },
      ]),
    ).not.toHaveProperty('system');
  });
});

describe('roles', () => {
  it('merges consecutive messages of the same role into one turn', () => {
    expect(
      convert([
        { role: 'user', content: 'One.' },
        { role: 'user', content: [{ type: 'text', text: 'Two.' }] },
        { role: 'assistant', content: 'Ok.' },
        { role: 'assistant', content: 'Really.' },
        { role: 'user', content: 'Three.' },
      ]).messages,
    ).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'One.' },
          { type: 'text', text: 'Two.' },
        ],
      },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Ok.' },
          { type: 'text', text: 'Really.' },
        ],
      },
      { role: 'user', content: [{ type: 'text', text: 'Three.' }] },
    ]);
  });

  it('drops whitespace-only text, and a turn left empty, so that the turns around it merge', () => {
    expect(
      convert([
        { role: 'user', content: 'Hi' },
        { role: 'assistant', content: '\n\n' },
        {
          role: 'user',
          content: [
            { type: 'text', text: ' ' },
            { type: 'text', text: 'again' },
          ],
        },
      ]).messages,
    ).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Hi' },
          { type: 'text', text: 'again' },
        ],
      },
    ]);
  });

  it('rejects a conversation with no user or assistant content, and legacy function messages', () => {
    rejects([{ role: 'system', content: 'Be brief.' }], 'messages');
    rejects([{ role: 'function', name: 'f', content: '1' }], 'messages[0].role');
  });
});

describe('tool calls and tool results', () => {
  const history = [
    { role: 'user', content: 'Weather in Paris and Rome?' },
    {
      role: 'assistant',
      content: 'Checking both.',
      tool_calls: [
        { id: 'toolu_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
        { id: 'toolu_2', type: 'function', function: { name: 'get_weather', arguments: '' } },
      ],
    },
    { role: 'tool', tool_call_id: 'toolu_1', content: '18C' },
    { role: 'tool', tool_call_id: 'toolu_2', content: [{ type: 'text', text: '25C' }] },
    { role: 'user', content: 'Which is warmer?' },
  ];

  it('turns assistant tool_calls into tool_use blocks with parsed input', () => {
    expect(convert(history).messages[1]).toEqual({
      role: 'assistant',
      content: [
        { type: 'text', text: 'Checking both.' },
        { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } },
        { type: 'tool_use', id: 'toolu_2', name: 'get_weather', input: {} },
      ],
    });
  });

  it('puts consecutive tool messages as tool_result blocks first in one user turn, with the next user text', () => {
    const { messages } = convert(history);
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(messages[2]).toEqual({
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'toolu_1', content: '18C' },
        { type: 'tool_result', tool_use_id: 'toolu_2', content: '25C' },
        { type: 'text', text: 'Which is warmer?' },
      ],
    });
  });

  it('sends an empty tool result without content', () => {
    expect(convert([{ role: 'tool', tool_call_id: 't', content: '' }]).messages[0]!.content).toEqual([
      { type: 'tool_result', tool_use_id: 't' },
    ]);
  });

  it('rejects arguments that are not a JSON object, naming the field', () => {
    const call = (args: string) => [
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 't', type: 'function', function: { name: 'f', arguments: args } }],
      },
    ];
    rejects(call('{oops'), 'messages[0].tool_calls[0].function.arguments');
    rejects(call('[1,2]'), 'messages[0].tool_calls[0].function.arguments');
  });
});

describe('image and file parts', () => {
  it('sends data URLs as base64 sources and http(s) URLs as url sources', () => {
    const { messages } = convert([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Compare' },
          { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
          { type: 'image_url', image_url: { url: 'data:image/jpg;base64,/9j/4AAQ', detail: 'high' } },
          { type: 'image_url', image_url: { url: 'https://example.com/cat.jpg' } },
        ],
      },
    ]);
    expect(messages[0]!.content).toEqual([
      { type: 'text', text: 'Compare' },
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
      { type: 'image', source: { type: 'base64', media_type: 'image/jpeg', data: '/9j/4AAQ' } },
      { type: 'image', source: { type: 'url', url: 'https://example.com/cat.jpg' } },
    ]);
  });

  it('rejects other image URLs and media types, naming the part', () => {
    rejects(
      [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'ftp://example.com/a.png' } }] }],
      'messages[0].content[0].image_url.url',
    );
    rejects(
      [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'x' },
            { type: 'image_url', image_url: { url: 'data:image/svg+xml;base64,PHN2Zz4=' } },
          ],
        },
      ],
      'messages[0].content[1].image_url.url',
    );
  });

  it('sends PDF and text files as document blocks', () => {
    const text = Buffer.from('Meeting notes').toString('base64');
    const { messages } = convert([
      {
        role: 'user',
        content: [
          { type: 'file', file: { file_data: 'data:application/pdf;base64,JVBERi0xLjQ=', filename: 'report.pdf' } },
          { type: 'file', file: { file_data: `data:text/plain;base64,${text}` } },
        ],
      },
    ]);
    expect(messages[0]!.content).toEqual([
      {
        type: 'document',
        source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0xLjQ=' },
        title: 'report.pdf',
      },
      { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'Meeting notes' } },
    ]);
  });

  it('rejects file ids, other file types and audio input, naming the part', () => {
    rejects(
      [{ role: 'user', content: [{ type: 'file', file: { file_id: 'file-abc' } }] }],
      'messages[0].content[0].file',
    );
    rejects(
      [{ role: 'user', content: [{ type: 'file', file: { file_data: 'data:application/zip;base64,UEsDBA==' } }] }],
      'messages[0].content[0].file',
    );
    rejects(
      [{ role: 'user', content: [{ type: 'input_audio', input_audio: { data: 'AAAA', format: 'wav' } }] }],
      'messages[0].content[0]',
    );
  });
});
