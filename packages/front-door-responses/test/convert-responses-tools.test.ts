import type { GatewayWarning } from '@switchyard/core';
import { describe, expect, it } from 'vitest';
import {
  ToolNameMap,
  convertChatCompletion,
  convertChatStream,
  convertItemsToChatMessages,
  convertResponsesRequest,
  flattenToolName,
  newResponseObject,
  normalizeInputItems,
  responsesRequestSchema,
} from '../src/index.js';

// Codex 0.171.0's tools as it declared them in a recorded request (descriptions and schemas cut short).
const codexTools = [
  {
    type: 'function',
    name: 'exec_command',
    strict: false,
    parameters: { type: 'object', properties: { cmd: { type: 'string' } }, required: ['cmd'] },
  },
  {
    type: 'namespace',
    name: 'multi_agent_v1',
    description: 'Sub-agents',
    tools: [
      {
        type: 'function',
        name: 'spawn_agent',
        parameters: { type: 'object', properties: { message: { type: 'string' } } },
      },
      { type: 'function', name: 'wait_agent', parameters: { type: 'object', properties: {} } },
    ],
  },
  {
    type: 'custom',
    name: 'apply_patch',
    description: 'Edit files. This is a FREEFORM tool.',
    format: { type: 'grammar', syntax: 'lark', definition: 'start: begin_patch hunk+ end_patch' },
  },
  { type: 'tool_search', execution: 'client', description: 'Tool discovery' },
  {
    type: 'web_search',
    external_web_access: true,
    search_context_size: 'high',
    user_location: { type: 'approximate', country: 'FR' },
  },
];

const prepare = (body: Record<string, unknown>, hosted = {}) => {
  const request = responsesRequestSchema.parse({ model: 'm', input: 'hi', ...body });
  const names = new ToolNameMap();
  const warnings: GatewayWarning[] = [];
  const chat = convertResponsesRequest(
    request,
    [],
    convertItemsToChatMessages(normalizeInputItems(request.input), 'input', warnings),
    { names, warnings, hosted },
  );
  return { request, chat, names, warnings };
};

describe('flattenToolName', () => {
  it('joins namespace and name with __ and keeps every provider rule (charset, first character, 64 characters)', () => {
    expect(flattenToolName('spawn_agent', 'multi_agent_v1')).toBe('multi_agent_v1__spawn_agent');
    expect(flattenToolName('exec_command')).toBe('exec_command');
    expect(flattenToolName('get.weather', 'mcp:srv')).toBe('mcp_srv__get_weather');
    expect(flattenToolName('run', '9lives')).toBe('_9lives__run');
    const long = flattenToolName('a'.repeat(50), 'n'.repeat(30));
    expect(long).toHaveLength(64);
    expect(long).toMatch(/^[A-Za-z_][A-Za-z0-9_-]{0,63}$/);
    expect(flattenToolName('a'.repeat(50), 'n'.repeat(30))).toBe(long);
    expect(flattenToolName('a'.repeat(51), 'n'.repeat(29))).not.toBe(long);
  });
});

describe('Codex tools on the translated route', () => {
  it('flattens namespaces, turns custom tools into one-string functions and drops hosted tools with warnings', () => {
    const { chat, warnings } = prepare({
      tools: codexTools,
      tool_choice: 'auto',
      include: ['reasoning.encrypted_content'],
    });
    const tools = chat.tools as {
      type: string;
      function: { name: string; description?: string; parameters?: unknown };
    }[];
    expect(tools.map((t) => t.function.name)).toEqual([
      'exec_command',
      'multi_agent_v1__spawn_agent',
      'multi_agent_v1__wait_agent',
      'apply_patch',
    ]);
    expect(tools[3]!.function.parameters).toEqual({
      type: 'object',
      properties: { input: { type: 'string', description: expect.any(String) } },
      required: ['input'],
      additionalProperties: false,
    });
    expect(tools[3]!.function.description).toContain('start: begin_patch hunk+ end_patch');
    expect(chat.web_search_options).toBeUndefined();
    expect(warnings.map((w) => `${w.code} ${w.param}`)).toEqual([
      'unsupported_tool tools[3].type',
      'unsupported_tool tools[4].type',
      'unsupported_parameter include',
    ]);
  });

  it('maps web_search to web_search_options when the provider has a search tool', () => {
    const { chat, warnings } = prepare({ tools: codexTools }, { webSearch: true });
    expect(chat.web_search_options).toEqual({
      search_context_size: 'high',
      user_location: { type: 'approximate', approximate: { country: 'FR' } },
    });
    expect(warnings.map((w) => w.param)).toEqual(['tools[3].type']);
  });

  it('maps a named custom or namespaced tool_choice, and a hosted one to auto with a warning', () => {
    expect(
      prepare({ tools: codexTools, tool_choice: { type: 'custom', name: 'apply_patch' } }).chat.tool_choice,
    ).toEqual({ type: 'function', function: { name: 'apply_patch' } });
    expect(
      prepare({ tools: codexTools, tool_choice: { type: 'function', name: 'wait_agent', namespace: 'multi_agent_v1' } })
        .chat.tool_choice,
    ).toEqual({
      type: 'function',
      function: { name: 'multi_agent_v1__wait_agent' },
    });
    const hosted = prepare({ tools: codexTools, tool_choice: { type: 'web_search' } });
    expect(hosted.chat.tool_choice).toBe('auto');
    expect(hosted.warnings.some((w) => w.code === 'unsupported_tool_choice')).toBe(true);
  });

  it('replays namespaced and custom calls as the functions they were declared as; drops reasoning and hosted items', () => {
    const warnings: GatewayWarning[] = [];
    const items = normalizeInputItems([
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'go' }] },
      { type: 'reasoning', id: 'rs_1', summary: [], encrypted_content: 'gAAAA...' },
      { type: 'function_call', call_id: 'c1', namespace: 'multi_agent_v1', name: 'wait_agent', arguments: '{}' },
      { type: 'custom_tool_call', call_id: 'c2', name: 'apply_patch', input: '*** Begin Patch\n*** End Patch\n' },
      { type: 'web_search_call', id: 'ws_1', status: 'completed', action: { type: 'search', query: 'x' } },
      { type: 'function_call_output', call_id: 'c1', output: 'done' },
      { type: 'custom_tool_call_output', call_id: 'c2', output: 'Success.' },
    ]);
    expect(convertItemsToChatMessages(items, 'input', warnings)).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'go' }] },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'c1', type: 'function', function: { name: 'multi_agent_v1__wait_agent', arguments: '{}' } },
          {
            id: 'c2',
            type: 'function',
            function: { name: 'apply_patch', arguments: JSON.stringify({ input: '*** Begin Patch\n*** End Patch\n' }) },
          },
        ],
      },
      { role: 'tool', tool_call_id: 'c1', content: 'done' },
      { role: 'tool', tool_call_id: 'c2', content: 'Success.' },
    ]);
    expect(warnings.map((w) => w.message)).toEqual([
      expect.stringContaining("'reasoning'"),
      expect.stringContaining("'web_search_call'"),
    ]);
  });

  it('maps the calls of a completion back: namespace + name, and custom_tool_call with the raw input', () => {
    const { request, names } = prepare({ tools: codexTools });
    const response = convertChatCompletion(
      {
        id: 'c',
        object: 'chat.completion',
        created: 1,
        model: 'm',
        choices: [
          {
            index: 0,
            finish_reason: 'tool_calls',
            logprobs: null,
            message: {
              role: 'assistant',
              content: null,
              refusal: null,
              tool_calls: [
                {
                  id: 'call_1',
                  type: 'function',
                  function: { name: 'multi_agent_v1__spawn_agent', arguments: '{"message":"hi"}' },
                },
                {
                  id: 'call_2',
                  type: 'function',
                  function: { name: 'apply_patch', arguments: '{"input":"*** Begin Patch\\n*** End Patch"}' },
                },
              ],
            },
          },
        ],
      },
      newResponseObject('resp_1', request, 1, false),
      names,
    );
    expect(response.output).toEqual([
      {
        type: 'function_call',
        id: expect.stringMatching(/^fc_/),
        call_id: 'call_1',
        namespace: 'multi_agent_v1',
        name: 'spawn_agent',
        arguments: '{"message":"hi"}',
        status: 'completed',
      },
      {
        type: 'custom_tool_call',
        id: expect.stringMatching(/^ctc_/),
        call_id: 'call_2',
        name: 'apply_patch',
        input: '*** Begin Patch\n*** End Patch',
        status: 'completed',
      },
    ]);
  });

  it('streams a custom tool call as custom_tool_call_input deltas as the arguments arrive, then done', async () => {
    const { request, names } = prepare({ tools: codexTools, stream: true });
    const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
      id: 'c',
      object: 'chat.completion.chunk' as const,
      created: 1,
      model: 'm',
      choices: [{ index: 0, delta, finish_reason: finish, logprobs: null }],
    });
    async function* chunks() {
      yield chunk({
        tool_calls: [{ index: 0, id: 'call_9', type: 'function', function: { name: 'apply_patch', arguments: '' } }],
      });
      yield chunk({ tool_calls: [{ index: 0, function: { arguments: '{"input":"*** Begin' } }] });
      yield chunk({ tool_calls: [{ index: 0, function: { arguments: ' Patch\\n"}' } }] }, 'tool_calls');
    }
    const events = [];
    for await (const event of convertChatStream(
      chunks() as never,
      newResponseObject('resp_2', request, 1, false),
      undefined,
      names,
    ))
      events.push(event);
    expect(events.map((e) => e.type)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.custom_tool_call_input.delta',
      'response.custom_tool_call_input.delta',
      'response.custom_tool_call_input.done',
      'response.output_item.done',
      'response.completed',
    ]);
    expect(events[2]!.item).toMatchObject({
      type: 'custom_tool_call',
      call_id: 'call_9',
      name: 'apply_patch',
      input: '',
    });
    expect([events[3]!.delta, events[4]!.delta]).toEqual(['*** Begin', ' Patch\n']);
    expect(events[5]!.input).toBe('*** Begin Patch\n');
    expect(events[6]!.item).toMatchObject({
      type: 'custom_tool_call',
      input: '*** Begin Patch\n',
      status: 'completed',
    });
  });
});
