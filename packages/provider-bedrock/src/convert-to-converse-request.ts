import { type ChatCompletionRequest, type GatewayWarning, invalidRequestError } from '@switchyard/core';
import type { ConverseRequest, ConverseToolChoice } from './bedrock-types.js';
import { applyBedrockReasoning } from './bedrock-reasoning.js';
import { checkUnsupportedParameters } from './check-unsupported-parameters.js';
import { convertToConverseMessages } from './convert-to-converse-messages.js';

function convertToolChoice(choice: ChatCompletionRequest['tool_choice']): ConverseToolChoice | 'none' | undefined {
  if (choice === undefined || choice === null || choice === 'auto') return undefined;
  if (choice === 'required') return { any: {} };
  if (choice === 'none') return 'none';
  const name = (choice as { function?: { name?: string } }).function?.name;
  if (name) return { tool: { name } };
  throw invalidRequestError(
    "Invalid 'tool_choice': expected none, auto, required or a named function.",
    'tool_choice',
    'invalid_value',
  );
}

/**
 * OpenAI chat request -> Converse body plus warnings for dropped parameters:
 * - {@link checkUnsupportedParameters} first (400 for what cannot be honoured, warnings for dropped hints);
 * - `messages` -> `system` + alternating `messages` ({@link convertToConverseMessages});
 * - `max_completion_tokens` (or `max_tokens`) -> `inferenceConfig.maxTokens`, `temperature`, `top_p` -> `topP`,
 *   `stop` -> `stopSequences`;
 * - `tools` -> `toolConfig.tools[].toolSpec {name, description, inputSchema.json}`; `tool_choice` `required` ->
 *   `{any:{}}`, a named function -> `{tool:{name}}`, `auto` -> Bedrock's default; `none` -> no tools are sent (when the
 *   history holds tool calls, Converse needs the tools, so they are kept and a warning says `none` was not honoured).
 * - `reasoning_effort` or the client's own `additionalModelRequestFields` -> thinking ({@link applyBedrockReasoning}).
 * Pure; throws 400 GatewayErrors naming the field.
 * @see https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_Converse.html
 */
export function convertToConverseRequest(request: ChatCompletionRequest): {
  body: ConverseRequest;
  warnings: GatewayWarning[];
} {
  const warnings = checkUnsupportedParameters(request);
  const { system, messages } = convertToConverseMessages(request.messages);
  if (messages.length === 0)
    throw invalidRequestError(
      "Invalid 'messages': Bedrock needs at least one user or assistant message.",
      'messages',
      'invalid_value',
    );
  const body: ConverseRequest = { messages };
  if (system.length > 0) body.system = system;
  const inference: NonNullable<ConverseRequest['inferenceConfig']> = {};
  const maxTokens = request.max_completion_tokens ?? request.max_tokens;
  if (maxTokens != null) inference.maxTokens = maxTokens;
  if (request.temperature != null) inference.temperature = request.temperature;
  if (request.top_p != null) inference.topP = request.top_p;
  const stop = typeof request.stop === 'string' ? [request.stop] : request.stop;
  if (stop?.length) inference.stopSequences = stop;
  if (Object.keys(inference).length > 0) body.inferenceConfig = inference;
  if (request.tools?.length) {
    const choice = convertToolChoice(request.tool_choice);
    const historyHasTools = messages.some((m) => m.content.some((b) => 'toolUse' in b || 'toolResult' in b));
    if (choice === 'none' && historyHasTools) {
      warnings.push({
        code: 'unsupported_parameter',
        param: 'tool_choice',
        message: "Bedrock has no tool_choice 'none' once tools were used; the model may call tools.",
      });
    }
    if (choice !== 'none' || historyHasTools) {
      body.toolConfig = {
        tools: request.tools.map((tool) => ({
          toolSpec: {
            name: tool.function.name,
            ...(tool.function.description ? { description: tool.function.description } : {}),
            inputSchema: { json: tool.function.parameters ?? { type: 'object', properties: {} } },
          },
        })),
        ...(choice && choice !== 'none' ? { toolChoice: choice } : {}),
      };
    }
  }
  warnings.push(...applyBedrockReasoning(request, body));
  return { body, warnings };
}
