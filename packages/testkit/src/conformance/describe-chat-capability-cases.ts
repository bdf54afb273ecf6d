import {
  type AdapterCallContext,
  type ChatCompletion,
  type ChatCompletionRequest,
  GatewayError,
  type GatewayWarning,
  type ProviderAdapter,
} from '@switchyard/core';
import { expect, it } from 'vitest';
import type { MockUpstream, RecordedRequest } from '../mock-upstream/index.js';
import type { AdapterConformanceOptions, ChatCapability } from './adapter-conformance-options.js';
import { conformanceChatRequest } from './conformance-request.js';

/** What the chat capability cases need from the enclosing suite (created in its `beforeAll`). */
export interface ChatCapabilityCaseContext {
  upstream(): MockUpstream;
  adapter(): ProviderAdapter;
  context(signal?: AbortSignal, warn?: (warning: GatewayWarning) => void): AdapterCallContext;
}

/** A one-pixel PNG's first bytes, base64: the image every vision case sends (as a `data:` URL). */
export const CONFORMANCE_IMAGE_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAAB';
/** The property name of the JSON schema every `json_schema` case asks for; it must reach the upstream. */
export const CONFORMANCE_SCHEMA_PROPERTY = 'conformance_answer';
/** The tool result text every tool round trip sends back; it must reach the upstream. */
export const CONFORMANCE_TOOL_RESULT = 'conformance tool result: 18 degrees and fog';

const visionRequest = (model: string): ChatCompletionRequest =>
  conformanceChatRequest(model, {
    messages: [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is in this picture?' },
          { type: 'image_url', image_url: { url: `data:image/png;base64,${CONFORMANCE_IMAGE_BASE64}` } },
        ],
      },
    ],
  });

const jsonSchemaFormat = {
  type: 'json_schema' as const,
  json_schema: {
    name: 'answer',
    schema: {
      type: 'object',
      properties: { [CONFORMANCE_SCHEMA_PROPERTY]: { type: 'string' } },
      required: [CONFORMANCE_SCHEMA_PROPERTY],
    },
  },
};

/** How a capability the adapter does not have is asked for, and the request field a refusal or warning must name. */
const UNSUPPORTED_REQUESTS: Record<
  ChatCapability,
  { title: string; param: string; extra: (model: string) => ChatCompletionRequest }
> = {
  tools: {
    title: 'tools',
    param: 'tools',
    extra: (model) =>
      conformanceChatRequest(model, {
        tools: [{ type: 'function', function: { name: 'weather', parameters: { type: 'object', properties: {} } } }],
      }),
  },
  vision: { title: 'vision', param: 'messages', extra: visionRequest },
  json_schema: {
    title: 'JSON output (json_schema)',
    param: 'response_format',
    extra: (model) => conformanceChatRequest(model, { response_format: jsonSchemaFormat }),
  },
  json_object: {
    title: 'JSON output (json_object)',
    param: 'response_format',
    extra: (model) => conformanceChatRequest(model, { response_format: { type: 'json_object' } }),
  },
};

/**
 * The chat capability cases (tools, vision, JSON output), registered inside describeAdapterConformance's block for a
 * chat adapter:
 * - tools (when `chat.toolCall` gives a recorded tool call): the tool is declared to the upstream, the call comes back
 *   as `tool_calls` with `finish_reason: "tool_calls"` and JSON arguments, and a round trip (the assistant's
 *   `tool_calls` and a `tool` message) reaches the upstream with the tool result;
 * - vision: an image (`image_url` with a `data:` URL) reaches the upstream with its bytes;
 * - JSON output: `response_format` `json_schema` reaches the upstream with the schema, and `json_object` changes the
 *   native request (or is reported with a warning);
 * each answered from the adapter's recorded completion. A capability listed in `chat.unsupported` gets instead a case
 * that checks it is refused with a 400 naming the field, or dropped with a warning naming it: never silently ignored.
 */
export function describeChatCapabilityCases(
  options: AdapterConformanceOptions,
  cases: ChatCapabilityCaseContext,
): void {
  const chat = options.chat;
  if (!chat) return;
  const unsupported = new Set(chat.unsupported ?? []);
  const send = async (request: ChatCompletionRequest) => {
    const warnings: GatewayWarning[] = [];
    const answer = await cases.adapter().chatCompletions!(
      request,
      cases.context(undefined, (w) => warnings.push(w)),
    );
    return { answer: answer as ChatCompletion, warnings };
  };
  const onCompletionRoute = async (
    request: ChatCompletionRequest,
  ): Promise<{ sent: RecordedRequest; answer: ChatCompletion; warnings: GatewayWarning[] }> => {
    cases.upstream().route(chat.completion.route, chat.completion.reply);
    const { answer, warnings } = await send(request);
    const sent = cases.upstream().requestsTo(chat.completion.route).at(-1);
    expect(sent, 'the adapter called the recorded route').toBeDefined();
    return { sent: sent!, answer, warnings };
  };

  for (const capability of unsupported) {
    const { title, param, extra } = UNSUPPORTED_REQUESTS[capability];
    it(`${title}: not supported - refused with a 400 naming '${param}', or dropped with a warning`, async () => {
      cases.upstream().route(chat.completion.route, chat.completion.reply);
      const outcome = await send(extra(options.model)).then(
        (value) => ({ value }),
        (error: unknown) => ({ error }),
      );
      if ('error' in outcome) {
        expect(GatewayError.isInstance(outcome.error), `expected a GatewayError, got ${String(outcome.error)}`).toBe(
          true,
        );
        expect((outcome.error as GatewayError).status).toBe(400);
        expect(String((outcome.error as GatewayError).param ?? '')).toMatch(new RegExp(`^${param}`));
      } else {
        expect(JSON.stringify(outcome.value.warnings), 'a warning names the dropped field').toContain(param);
      }
    });
  }

  if (chat.toolCall && !unsupported.has('tools')) {
    const toolCall = chat.toolCall;
    it('calls tools: declares the tool natively, answers tool_calls, and sends the tool result back', async () => {
      const tool = {
        type: 'function' as const,
        function: {
          name: toolCall.expect.name,
          description: 'Conformance tool',
          parameters: { type: 'object', properties: { location: { type: 'string' } } },
        },
      };
      const request = conformanceChatRequest(options.model, { tools: [tool], tool_choice: 'auto' });
      cases.upstream().route(toolCall.route, toolCall.reply);
      const { answer } = await send(request);
      const first = cases.upstream().requestsTo(toolCall.route).at(-1);
      expect(first, 'the adapter called the recorded route').toBeDefined();
      expect(first!.bodyText, 'the tool is declared to the upstream').toContain(toolCall.expect.name);
      const choice = answer.choices[0]!;
      expect(choice.finish_reason).toBe('tool_calls');
      const call = choice.message.tool_calls?.[0];
      expect(call, 'a tool call').toBeDefined();
      expect(call).toMatchObject({
        id: expect.any(String),
        type: 'function',
        function: { name: toolCall.expect.name },
      });
      expect(JSON.parse((call as { function: { arguments: string } }).function.arguments)).toEqual(
        toolCall.expect.arguments,
      );

      cases.upstream().route(toolCall.route, toolCall.reply);
      const assistant = {
        role: 'assistant' as const,
        content: choice.message.content ?? null,
        tool_calls: choice.message.tool_calls,
      };
      const result = { role: 'tool' as const, tool_call_id: call!.id, content: CONFORMANCE_TOOL_RESULT };
      await send({ ...request, messages: [...request.messages, assistant, result] } as ChatCompletionRequest);
      const second = cases.upstream().requestsTo(toolCall.route).at(-1)!;
      expect(second).not.toBe(first);
      expect(second.bodyText, 'the tool result reaches the upstream').toContain(CONFORMANCE_TOOL_RESULT);
      const mentions = (text: string) => text.split(toolCall.expect.name).length - 1;
      expect(mentions(second.bodyText), 'the tool call is sent back (its name beside the declaration)').toBeGreaterThan(
        mentions(first!.bodyText),
      );
    });
  }

  if (!unsupported.has('vision')) {
    it('sends images (vision): a data: URL image reaches the upstream with its bytes', async () => {
      const { sent, answer } = await onCompletionRoute(visionRequest(options.model));
      expect(sent.bodyText, 'the image bytes reach the upstream').toContain(CONFORMANCE_IMAGE_BASE64);
      expect(answer.choices[0]!.message.role).toBe('assistant');
    });
  }

  if (!unsupported.has('json_schema')) {
    it('asks for JSON output (json_schema): the schema reaches the upstream', async () => {
      const { sent } = await onCompletionRoute(
        conformanceChatRequest(options.model, { response_format: jsonSchemaFormat }),
      );
      expect(sent.bodyText, 'the schema reaches the upstream').toContain(CONFORMANCE_SCHEMA_PROPERTY);
    });
  }

  if (!unsupported.has('json_object')) {
    it('asks for JSON output (json_object): the native request asks for JSON', async () => {
      const plain = await onCompletionRoute(conformanceChatRequest(options.model));
      const json = await onCompletionRoute(
        conformanceChatRequest(options.model, { response_format: { type: 'json_object' } }),
      );
      if (json.sent.bodyText === plain.sent.bodyText) {
        expect(JSON.stringify(json.warnings), 'an unchanged request is reported with a warning').toContain(
          'response_format',
        );
      } else {
        expect(json.sent.bodyText.toLowerCase(), 'the native request asks for JSON').toContain('json');
      }
    });
  }
}
