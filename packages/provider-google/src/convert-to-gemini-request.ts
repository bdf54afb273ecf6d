import { type ChatCompletionRequest, type GatewayWarning, invalidRequestError } from '@switchyard/core';
import { cleanJsonSchema } from './clean-json-schema.js';
import { convertToGeminiContents } from './convert-to-gemini-contents.js';
import { geminiThinkingConfig } from './gemini-thinking-config.js';
import type { GeminiGenerateContentRequest, GeminiGenerationConfig } from './gemini-types.js';

/** Cleans a schema for Gemini, warning (naming `param`) about the keywords it had to drop. */
function cleanWithWarning(schema: unknown, param: string, warnings: GatewayWarning[]): Record<string, unknown> {
  const dropped: string[] = [];
  const cleaned = cleanJsonSchema(schema, dropped) as Record<string, unknown>;
  if (dropped.length > 0) {
    warnings.push({
      code: 'dropped_schema_keywords',
      param,
      message: `Gemini's schema does not support these keywords, dropped: ${dropped.join(', ')}.`,
    });
  }
  return cleaned;
}

/**
 * Chat's `web_search_options` -> Gemini's Google Search grounding tool `{googleSearch: {}}`, or undefined when the
 * request has none. Its fields have no equivalent in the tool (`search_context_size`, `user_location`): each one set is
 * dropped with an `unsupported_parameter` warning pushed to `warnings`. Throws 400 naming `web_search_options` when it
 * is not an object.
 * @see https://ai.google.dev/gemini-api/docs/google-search
 * @see https://platform.openai.com/docs/api-reference/chat/create#chat-create-web_search_options
 */
function googleSearchTool(
  request: ChatCompletionRequest,
  warnings: GatewayWarning[],
): { googleSearch: Record<string, never> } | undefined {
  const options = (request as { web_search_options?: unknown }).web_search_options;
  if (options == null) return undefined;
  if (typeof options !== 'object' || Array.isArray(options))
    throw invalidRequestError("Invalid 'web_search_options': expected an object.", 'web_search_options');
  for (const [field, value] of Object.entries(options)) {
    if (value == null) continue;
    warnings.push({
      code: 'unsupported_parameter',
      param: `web_search_options.${field}`,
      message: `Google Search grounding has no '${field}'; dropped.`,
    });
  }
  return { googleSearch: {} };
}

function toolConfig(request: ChatCompletionRequest): GeminiGenerateContentRequest['toolConfig'] {
  const choice = request.tool_choice as string | { function?: { name: string } } | undefined;
  if (choice === undefined) return undefined;
  if (choice === 'auto') return { functionCallingConfig: { mode: 'AUTO' } };
  if (choice === 'none') return { functionCallingConfig: { mode: 'NONE' } };
  if (choice === 'required') return { functionCallingConfig: { mode: 'ANY' } };
  if (typeof choice === 'object' && choice.function?.name)
    return { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: [choice.function.name] } };
  throw invalidRequestError('Unsupported tool_choice.', 'tool_choice');
}

/**
 * OpenAI chat request -> Gemini `generateContent` body: messages per {@link convertToGeminiContents};
 * `generationConfig` from `temperature`, `top_p` (topP), `max_completion_tokens`/`max_tokens` (maxOutputTokens),
 * `stop` (stopSequences), `n` (candidateCount), penalties, `seed`, `response_format` json_object/json_schema
 * (responseMimeType `application/json` + cleaned responseSchema), `logprobs`/`top_logprobs` (responseLogprobs/logprobs),
 * `reasoning_effort` or the client's `thinkingConfig` (thinkingConfig, see {@link geminiThinkingConfig}); `tools` ->
 * `functionDeclarations` (schemas cleaned); `web_search_options` -> the `googleSearch` tool ({@link googleSearchTool}); `tool_choice` auto/none/required/named -> AUTO/NONE/ANY/ANY +
 * allowedFunctionNames. Schema keywords Gemini does not support are dropped and named in a `dropped_schema_keywords`
 * warning pushed onto `warnings` (the gateway sends them in `x-switchyard-warning`), as are thinking requests the
 * model cannot honour.
 * @see https://ai.google.dev/api/generate-content#v1beta.GenerationConfig
 */
export function convertToGeminiRequest(
  request: ChatCompletionRequest,
  warnings: GatewayWarning[] = [],
): GeminiGenerateContentRequest {
  const { systemInstruction, contents } = convertToGeminiContents(request.messages);
  const config: GeminiGenerationConfig = {};
  if (request.temperature != null) config.temperature = request.temperature;
  if (request.top_p != null) config.topP = request.top_p;
  const maxTokens = request.max_completion_tokens ?? request.max_tokens;
  if (maxTokens != null) config.maxOutputTokens = maxTokens;
  const stop = typeof request.stop === 'string' ? [request.stop] : request.stop;
  if (stop?.length) config.stopSequences = stop;
  if (request.n != null && request.n > 1) config.candidateCount = request.n;
  if (request.presence_penalty != null) config.presencePenalty = request.presence_penalty;
  if (request.frequency_penalty != null) config.frequencyPenalty = request.frequency_penalty;
  if (request.seed != null) config.seed = request.seed;
  const format = request.response_format as { type: string; json_schema?: { schema?: unknown } } | null | undefined;
  if (format?.type === 'json_object') config.responseMimeType = 'application/json';
  if (format?.type === 'json_schema') {
    config.responseMimeType = 'application/json';
    if (format.json_schema?.schema)
      config.responseSchema = cleanWithWarning(
        format.json_schema.schema,
        'response_format.json_schema.schema',
        warnings,
      );
  }
  if (request.logprobs) config.responseLogprobs = true;
  if (request.top_logprobs != null && request.top_logprobs > 0) {
    config.responseLogprobs = true;
    config.logprobs = request.top_logprobs;
  }
  const thinkingConfig = geminiThinkingConfig(request, warnings);
  if (thinkingConfig) config.thinkingConfig = thinkingConfig;
  const body: GeminiGenerateContentRequest = { contents };
  if (systemInstruction) body.systemInstruction = systemInstruction;
  if (Object.keys(config).length > 0) body.generationConfig = config;
  const search = googleSearchTool(request, warnings);
  if (request.tools?.length || search) body.tools = search ? [search] : [];
  if (request.tools?.length) {
    body.tools!.push({
      functionDeclarations: request.tools.map((tool, i) => ({
        name: tool.function.name,
        ...(tool.function.description ? { description: tool.function.description } : {}),
        ...(tool.function.parameters
          ? { parameters: cleanWithWarning(tool.function.parameters, `tools[${i}].function.parameters`, warnings) }
          : {}),
      })),
    });
  }
  const tc = toolConfig(request);
  if (tc) body.toolConfig = tc;
  return body;
}
