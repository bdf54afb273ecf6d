import type { ChatCompletionRequest, GatewayWarning, ReasoningDetail } from '@switchyard/core';
import { ANTHROPIC_EFFORTS, ANTHROPIC_THINKING_BUDGETS, usesAdaptiveThinking } from '@switchyard/provider-anthropic';
import type { ConverseRequest } from './bedrock-types.js';

/** `format` of the `reasoning_details` entries made from Converse reasoning blocks (sent back as the same blocks). */
export const BEDROCK_REASONING_FORMAT = 'amazon-bedrock-converse-v1';

/** `maxTokens` sent for a thinking Claude model when the request gives none: budget + this many tokens. */
const ANSWER_TOKENS = 4096;

/**
 * Sets the thinking parameters of a Converse request, in place, and returns warnings for what it changed:
 * - the client's own `additionalModelRequestFields` (Bedrock's name) pass through as they are; a `reasoning_effort`
 *   next to them is ignored with a warning;
 * - `reasoning_effort` on Claude models (`anthropic.claude-...`, with or without a region prefix) ->
 *   `additionalModelRequestFields.thinking`: adaptive with `output_config.effort` on Claude 4.6 and later, else
 *   `{type:"enabled", budget_tokens}` with the Anthropic adapter's budgets; the budget counts within
 *   `inferenceConfig.maxTokens`, which is raised to budget + maxTokens (or budget + 4,096 when none was given) with a
 *   `max_tokens_raised` warning; `temperature`/`topP` are dropped with a warning (Claude refuses them with thinking);
 * - `reasoning_effort` on other models: dropped with an `unsupported_parameter` warning (send the model's own
 *   `additionalModelRequestFields`); `none`: nothing.
 * @see https://docs.aws.amazon.com/bedrock/latest/userguide/claude-messages-extended-thinking.html
 */
export function applyBedrockReasoning(request: ChatCompletionRequest, body: ConverseRequest): GatewayWarning[] {
  const warnings: GatewayWarning[] = [];
  const native = (request as { additionalModelRequestFields?: unknown }).additionalModelRequestFields;
  const effort = request.reasoning_effort ?? undefined;
  if (native && typeof native === 'object') {
    body.additionalModelRequestFields = native as Record<string, unknown>;
    if (effort)
      warnings.push({
        code: 'ignored_parameter',
        param: 'reasoning_effort',
        message: "'reasoning_effort' was ignored: the request's own 'additionalModelRequestFields' were sent.",
      });
    return warnings;
  }
  if (!effort || effort === 'none') return warnings;
  const claude = /(?:^|\.)anthropic\.(claude-[^:]+)/.exec(request.model)?.[1];
  if (!claude) {
    warnings.push({
      code: 'unsupported_parameter',
      param: 'reasoning_effort',
      message: `'reasoning_effort' is not translated for '${request.model}' on Bedrock and was ignored; send 'additionalModelRequestFields'.`,
    });
    return warnings;
  }
  if (usesAdaptiveThinking(claude)) {
    body.additionalModelRequestFields = {
      thinking: { type: 'adaptive' },
      output_config: { effort: ANTHROPIC_EFFORTS[effort] },
    };
  } else {
    const budget = ANTHROPIC_THINKING_BUDGETS[effort];
    const inference = (body.inferenceConfig ??= {});
    const asked = inference.maxTokens;
    if (asked === undefined || asked <= budget) {
      inference.maxTokens = budget + (asked ?? ANSWER_TOKENS);
      warnings.push({
        code: 'max_tokens_raised',
        param: request.max_completion_tokens != null ? 'max_completion_tokens' : 'max_tokens',
        message: `maxTokens set to ${inference.maxTokens}: reasoning_effort '${effort}' thinks with a budget of ${budget} tokens, counted within maxTokens.`,
      });
    }
    body.additionalModelRequestFields = { thinking: { type: 'enabled', budget_tokens: budget } };
  }
  for (const [field, param] of [
    ['temperature', 'temperature'],
    ['topP', 'top_p'],
  ] as const) {
    if (body.inferenceConfig?.[field] !== undefined) {
      delete body.inferenceConfig[field];
      warnings.push({
        code: 'unsupported_parameter',
        param,
        message: `'${param}' was ignored: Claude does not allow it with thinking.`,
      });
    }
  }
  return warnings;
}

/**
 * A Converse `reasoningContent` block -> its `reasoning_details` entry: `reasoningText` -> `{type:"reasoning.text",
 * text, signature, format:"amazon-bedrock-converse-v1", index}`, `redactedContent` (base64) ->
 * `{type:"reasoning.encrypted", data, ...}`. Undefined for other blocks.
 * @see https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ReasoningContentBlock.html
 */
export function bedrockReasoningDetail(reasoning: unknown, index: number): ReasoningDetail | undefined {
  const block = reasoning as
    | { reasoningText?: { text?: string; signature?: string }; redactedContent?: string }
    | undefined;
  if (block?.reasoningText) {
    return {
      type: 'reasoning.text',
      text: block.reasoningText.text ?? '',
      signature: block.reasoningText.signature ?? null,
      format: BEDROCK_REASONING_FORMAT,
      index,
    };
  }
  if (typeof block?.redactedContent === 'string')
    return { type: 'reasoning.encrypted', data: block.redactedContent, format: BEDROCK_REASONING_FORMAT, index };
  return undefined;
}

/**
 * The reasoning blocks of an earlier answer, from the `reasoning_details` a client sent back (entries of this format;
 * unsigned text is skipped, as Claude refuses it): `{reasoningContent:{reasoningText:{text, signature}}}` or
 * `{reasoningContent:{redactedContent}}`.
 */
export function bedrockReasoningBlocks(
  details: readonly ReasoningDetail[] | null | undefined,
): { reasoningContent: Record<string, unknown> }[] {
  const blocks: { reasoningContent: Record<string, unknown> }[] = [];
  for (const detail of details ?? []) {
    if (detail.format !== BEDROCK_REASONING_FORMAT) continue;
    if (detail.type === 'reasoning.text' && detail.signature)
      blocks.push({ reasoningContent: { reasoningText: { text: detail.text ?? '', signature: detail.signature } } });
    else if (detail.type === 'reasoning.encrypted' && typeof detail.data === 'string')
      blocks.push({ reasoningContent: { redactedContent: detail.data } });
  }
  return blocks;
}
