import type { ChatCompletionRequest, GatewayWarning, ReasoningEffort } from '@switchyard/core';
import type { GeminiThinkingConfig } from './gemini-types.js';

/** `thinkingBudget` per `reasoning_effort` for Gemini 2.5 models, tokens (`none` -> 0 turns thinking off). */
export const GEMINI_THINKING_BUDGETS: Readonly<Record<ReasoningEffort, number>> = {
  none: 0,
  minimal: 512,
  low: 1024,
  medium: 8192,
  high: 24576,
  xhigh: 32768,
};

/** Gemini 2.5 Pro thinks at least 128 tokens: it cannot turn thinking off. */
const MIN_PRO_BUDGET = 128;

/**
 * `thinkingLevel` per `reasoning_effort` for Gemini 3 models. Gemini 3 cannot turn thinking off (`none` -> the
 * lowest level, with a warning); Pro models know only `low` and `high`.
 */
function thinkingLevel(effort: ReasoningEffort, pro: boolean): string {
  if (pro) return effort === 'none' || effort === 'minimal' || effort === 'low' ? 'low' : 'high';
  if (effort === 'none') return 'minimal';
  return effort === 'xhigh' ? 'high' : effort;
}

/**
 * The Gemini `generationConfig.thinkingConfig` for a request, pushing a warning for what could not be honoured:
 * - the client's own `thinkingConfig` (Gemini's name, top level of the request) passes through as it is;
 * - `reasoning_effort` on Gemini 3 models (`gemini-3...`) -> `thinkingLevel` (`minimal`/`low`/`medium`/`high`; Pro:
 *   `low`/`high`), on other models (2.5) -> `thinkingBudget` per {@link GEMINI_THINKING_BUDGETS} (2.5 Pro: at least
 *   128, so `none` cannot turn its thinking off: warning);
 * - `includeThoughts: true` whenever the model thinks, so that thought summaries come back as `reasoning_content`.
 * Undefined when the request asks nothing about thinking (the model's default applies).
 * @see https://ai.google.dev/gemini-api/docs/thinking
 */
export function geminiThinkingConfig(
  request: ChatCompletionRequest,
  warnings: GatewayWarning[],
): GeminiThinkingConfig | undefined {
  const native = (request as { thinkingConfig?: unknown }).thinkingConfig;
  const effort = request.reasoning_effort ?? undefined;
  if (native && typeof native === 'object') {
    if (effort)
      warnings.push({
        code: 'ignored_parameter',
        param: 'reasoning_effort',
        message: "'reasoning_effort' was ignored: the request's own 'thinkingConfig' was sent.",
      });
    return native as GeminiThinkingConfig;
  }
  if (!effort) return undefined;
  const model = request.model.replace(/^models\//, '');
  const pro = /-pro(?:\W|$)/.test(model);
  const cannotStop = () =>
    warnings.push({
      code: 'unsupported_parameter',
      param: 'reasoning_effort',
      message: `'${model}' cannot turn thinking off: reasoning_effort 'none' was sent as the lowest level.`,
    });
  if (/^gemini-[3-9]/.test(model)) {
    if (effort === 'none') cannotStop();
    return { thinkingLevel: thinkingLevel(effort, pro), includeThoughts: true };
  }
  if (effort === 'none') {
    if (!pro) return { thinkingBudget: 0 };
    cannotStop();
    return { thinkingBudget: MIN_PRO_BUDGET, includeThoughts: true };
  }
  return { thinkingBudget: GEMINI_THINKING_BUDGETS[effort], includeThoughts: true };
}
