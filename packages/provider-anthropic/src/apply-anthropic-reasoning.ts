import type { ChatCompletionRequest, GatewayWarning, ReasoningEffort } from '@switchyard/core';
import type { AnthropicMessagesRequest } from './anthropic-types.js';
import { JSON_RESPONSE_TOOL_NAME } from './json-response-tool.js';

/**
 * `thinking.budget_tokens` per `reasoning_effort` for models with budgeted extended thinking (Claude 3.7 Sonnet, Claude
 * 4, 4.1 and 4.5 models), in tokens. 1,024 is Anthropic's minimum budget.
 */
export const ANTHROPIC_THINKING_BUDGETS: Readonly<Record<Exclude<ReasoningEffort, 'none'>, number>> = {
  minimal: 1024,
  low: 2048,
  medium: 8192,
  high: 16384,
  xhigh: 32768,
};

/** `output_config.effort` per `reasoning_effort` for models with adaptive thinking (Claude Opus/Sonnet 4.6 and later). */
export const ANTHROPIC_EFFORTS: Readonly<Record<Exclude<ReasoningEffort, 'none'>, string>> = {
  minimal: 'low',
  low: 'low',
  medium: 'medium',
  high: 'high',
  xhigh: 'max',
};

/** Model ids with adaptive thinking (`thinking: {type:"adaptive"}` + `output_config.effort`): 4.6 and later, 5.x. */
const ADAPTIVE_MODEL = /^claude-(?:opus|sonnet|haiku)-(?:4-(?:[6-9]|\d{2})|[5-9])(?:\D|$)/;

/** True when `model` takes adaptive thinking and an effort rather than a thinking budget. */
export function usesAdaptiveThinking(model: string): boolean {
  return ADAPTIVE_MODEL.test(model);
}

/**
 * Sets Anthropic's thinking parameters on `body`, in place, and returns warnings for what it changed:
 * - the client's own `thinking` (and `output_config`) pass through as they are; a `reasoning_effort` next to them is
 *   ignored with a warning;
 * - `reasoning_effort` `none` (or absent): no thinking;
 * - on models with adaptive thinking ({@link usesAdaptiveThinking}): `thinking: {type:"adaptive"}` and
 *   `output_config.effort` per {@link ANTHROPIC_EFFORTS};
 * - otherwise `thinking: {type:"enabled", budget_tokens}` per {@link ANTHROPIC_THINKING_BUDGETS}; the budget counts
 *   within `max_tokens`, so when `max_tokens` is not above it, `max_tokens` becomes budget + `max_tokens` (the text
 *   keeps what was asked) and a `max_tokens_raised` warning says so.
 * With thinking on, Anthropic refuses `temperature` other than 1, `top_k`, `top_p` below 0.95 and a forced tool
 * choice: those are dropped (`top_p` raised to 0.95, the tool choice made `auto`) with a warning naming each.
 * @see https://docs.anthropic.com/en/docs/build-with-claude/extended-thinking
 * @see https://docs.anthropic.com/en/docs/build-with-claude/effort
 */
export function applyAnthropicReasoning(
  request: ChatCompletionRequest,
  body: AnthropicMessagesRequest,
): GatewayWarning[] {
  const warnings: GatewayWarning[] = [];
  const fields = request as Record<string, unknown>;
  const effort = request.reasoning_effort ?? undefined;
  const native = fields.thinking != null && typeof fields.thinking === 'object';
  if (native) {
    body.thinking = fields.thinking as AnthropicMessagesRequest['thinking'];
    if (effort)
      warnings.push({
        code: 'ignored_parameter',
        param: 'reasoning_effort',
        message: "'reasoning_effort' was ignored: the request's own 'thinking' was sent.",
      });
  } else if (effort && effort !== 'none') {
    if (usesAdaptiveThinking(body.model)) {
      body.thinking = { type: 'adaptive' };
      body.output_config = { ...body.output_config, effort: ANTHROPIC_EFFORTS[effort] };
    } else {
      const budget = ANTHROPIC_THINKING_BUDGETS[effort];
      if (body.max_tokens <= budget) {
        const raised = budget + body.max_tokens;
        const param = request.max_completion_tokens != null ? 'max_completion_tokens' : 'max_tokens';
        warnings.push({
          code: 'max_tokens_raised',
          param,
          message: `max_tokens raised from ${body.max_tokens} to ${raised}: reasoning_effort '${effort}' thinks with a budget of ${budget} tokens, counted within max_tokens.`,
        });
        body.max_tokens = raised;
      }
      body.thinking = { type: 'enabled', budget_tokens: budget };
    }
  }
  if (fields.output_config != null && typeof fields.output_config === 'object')
    body.output_config = { ...body.output_config, ...(fields.output_config as Record<string, unknown>) };
  const thinkingType = (body.thinking as { type?: string } | undefined)?.type;
  if (thinkingType === 'enabled' || thinkingType === 'adaptive') warnings.push(...fitSamplingToThinking(body));
  return warnings;
}

function fitSamplingToThinking(body: AnthropicMessagesRequest): GatewayWarning[] {
  const warnings: GatewayWarning[] = [];
  const dropped = (param: string, what: string) =>
    warnings.push({
      code: 'unsupported_parameter',
      param,
      message: `'${param}' ${what}: Anthropic does not allow it with thinking.`,
    });
  if (body.temperature != null && body.temperature !== 1) {
    delete body.temperature;
    dropped('temperature', 'was ignored');
  }
  if (body.top_k != null) {
    delete body.top_k;
    dropped('top_k', 'was ignored');
  }
  if (body.top_p != null && body.top_p < 0.95) {
    body.top_p = 0.95;
    dropped('top_p', 'was raised to 0.95');
  }
  if (body.tool_choice && (body.tool_choice.type === 'any' || body.tool_choice.type === 'tool')) {
    const disable = body.tool_choice.disable_parallel_tool_use;
    const json = body.tools?.some((tool) => tool.name === JSON_RESPONSE_TOOL_NAME) ?? false;
    body.tool_choice = { type: 'auto', ...(disable ? { disable_parallel_tool_use: true } : {}) };
    // JSON answers come through a forced tool; with thinking the model is only offered it.
    if (json) dropped('response_format', "is asked through the 'json' tool with tool_choice 'auto' (not forced)");
    else dropped('tool_choice', "was sent as 'auto' (a forced tool)");
  }
  return warnings;
}
