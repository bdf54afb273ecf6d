import { describe, expect, it } from 'vitest';
import { convertToAnthropicTools } from '../src/index.js';
import { chatRequest } from './support.js';

const weather = {
  type: 'function',
  function: {
    name: 'get_weather',
    description: 'Weather',
    parameters: { type: 'object', properties: { city: { type: 'string' } } },
  },
};
const clock = { type: 'function', function: { name: 'get_time' } };
const plan = (extra: Record<string, unknown>) => convertToAnthropicTools(chatRequest(extra));
const rejects = (extra: Record<string, unknown>, param: string) =>
  expect(() => plan(extra)).toThrow(expect.objectContaining({ status: 400, param }));

describe('tools', () => {
  it('become name, description and input_schema; a tool without parameters gets an empty object schema', () => {
    expect(plan({ tools: [weather, clock] })).toEqual({
      tools: [
        {
          name: 'get_weather',
          description: 'Weather',
          input_schema: { type: 'object', properties: { city: { type: 'string' } } },
        },
        { name: 'get_time', input_schema: { type: 'object', properties: {} } },
      ],
      jsonMode: false,
    });
  });

  it('rejects a parameters schema whose root is not an object', () => {
    rejects(
      { tools: [{ type: 'function', function: { name: 'f', parameters: { type: 'array' } } }] },
      'tools[0].function.parameters',
    );
  });
});

describe('tool_choice and parallel_tool_calls', () => {
  it.each([
    ['auto', undefined, { type: 'auto' }],
    ['none', undefined, { type: 'none' }],
    ['required', undefined, { type: 'any' }],
    [{ type: 'function', function: { name: 'get_time' } }, undefined, { type: 'tool', name: 'get_time' }],
    ['auto', false, { type: 'auto', disable_parallel_tool_use: true }],
    ['required', false, { type: 'any', disable_parallel_tool_use: true }],
    [
      { type: 'function', function: { name: 'get_time' } },
      false,
      { type: 'tool', name: 'get_time', disable_parallel_tool_use: true },
    ],
    [undefined, false, { type: 'auto', disable_parallel_tool_use: true }],
  ])('tool_choice %j with parallel_tool_calls %j -> %j', (toolChoice, parallel, expected) => {
    expect(
      plan({ tools: [weather, clock], tool_choice: toolChoice, parallel_tool_calls: parallel }).tool_choice,
    ).toEqual(expected);
  });

  it('sends no tool_choice without one (Anthropic defaults to auto) and none without tools', () => {
    expect(plan({ tools: [weather] })).not.toHaveProperty('tool_choice');
    expect(plan({ tool_choice: 'required' })).toEqual({ jsonMode: false });
  });

  it('rejects a named tool that is not offered, and tool_choice types Anthropic lacks', () => {
    rejects(
      { tools: [weather], tool_choice: { type: 'function', function: { name: 'nope' } } },
      'tool_choice.function.name',
    );
    rejects({ tools: [weather], tool_choice: { type: 'allowed_tools', allowed_tools: {} } }, 'tool_choice');
  });
});

describe('JSON response_format through the JSON tool', () => {
  const schema = { type: 'object', properties: { elements: { type: 'array' } }, required: ['elements'] };
  const jsonSchema = { type: 'json_schema', json_schema: { name: 'weather_report', schema } };

  it('json_schema: the only tool, forced, with the schema as input_schema', () => {
    expect(plan({ response_format: jsonSchema })).toEqual({
      tools: [
        { name: 'json', description: "Answer with JSON matching the 'weather_report' schema.", input_schema: schema },
      ],
      tool_choice: { type: 'tool', name: 'json', disable_parallel_tool_use: true },
      jsonMode: true,
    });
  });

  it('json_object: any JSON object', () => {
    expect(plan({ response_format: { type: 'json_object' } }).tools).toEqual([
      { name: 'json', description: 'Answer with a JSON object.', input_schema: { type: 'object' } },
    ]);
  });

  it('text: no JSON tool', () => {
    expect(plan({ response_format: { type: 'text' } })).toEqual({ jsonMode: false });
  });

  it('with client tools: offered beside them with tool_choice any; with tool_choice none: forced', () => {
    expect(plan({ tools: [weather], response_format: jsonSchema })).toMatchObject({
      tools: [{ name: 'get_weather' }, { name: 'json' }],
      tool_choice: { type: 'any' },
      jsonMode: true,
    });
    expect(
      plan({ tools: [weather], tool_choice: 'auto', parallel_tool_calls: false, response_format: jsonSchema })
        .tool_choice,
    ).toEqual({ type: 'any', disable_parallel_tool_use: true });
    expect(plan({ tools: [weather], tool_choice: 'none', response_format: jsonSchema })).toMatchObject({
      tools: [{ name: 'get_weather' }, { name: 'json' }],
      tool_choice: { type: 'tool', name: 'json' },
      jsonMode: true,
    });
  });

  it('with a named or required tool_choice: no JSON tool, the answer is a tool call', () => {
    expect(plan({ tools: [weather], tool_choice: 'required', response_format: jsonSchema })).toEqual({
      tools: [expect.objectContaining({ name: 'get_weather' })],
      tool_choice: { type: 'any' },
      jsonMode: false,
    });
    expect(
      plan({
        tools: [weather],
        tool_choice: { type: 'function', function: { name: 'get_weather' } },
        response_format: jsonSchema,
      }).jsonMode,
    ).toBe(false);
  });

  it('rejects a client tool named json and a schema whose root is not an object', () => {
    rejects(
      { tools: [{ type: 'function', function: { name: 'json' } }], response_format: { type: 'json_object' } },
      'tools[0].function.name',
    );
    rejects(
      { response_format: { type: 'json_schema', json_schema: { name: 'list', schema: { type: 'array' } } } },
      'response_format.json_schema.schema',
    );
  });
});
