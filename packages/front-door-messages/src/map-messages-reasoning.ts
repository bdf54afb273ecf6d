import type { GatewayWarning } from '@switchyard/core';
import type { MessagesRequest } from './messages-request-schema.js';

/** `thinking.budget_tokens` -> chat `reasoning_effort` (the gateway's shared scale, tokens: 1,024 / 2,048 / 8,192 / 16,384). */
function effortOfBudget(budget: number | undefined): string {
  if (budget === undefined) return 'medium';
  if (budget <= 1024) return 'minimal';
  if (budget <= 2048) return 'low';
  if (budget <= 8192) return 'medium';
  if (budget <= 16384) return 'high';
  return 'xhigh';
}

/** Anthropic's `output_config.effort` (`low` | `medium` | `high` | `max`) -> chat `reasoning_effort`. */
const EFFORTS: Record<string, string> = { low: 'low', medium: 'medium', high: 'high', max: 'xhigh' };

/**
 * Anthropic's reasoning and output settings -> chat fields, for models that do not speak Anthropic's API:
 * - `output_config.effort` -> `reasoning_effort` (`max` -> `xhigh`); else `thinking` (`enabled` or `adaptive`) ->
 *   `reasoning_effort` by `budget_tokens` (none: `medium`); `thinking: {type: "disabled"}` sends nothing;
 * - `output_config.format` (`{type: "json_schema", schema}`) -> `response_format: {type: "json_schema", json_schema:
 *   {name: "output", schema, strict: true}}`;
 * - any other `output_config` field is dropped with a `dropped_parameter` warning naming it.
 * Writes into `body`; returns the warnings.
 * @see https://docs.anthropic.com/en/api/messages
 * @see https://docs.claude.com/en/docs/build-with-claude/effort
 */
export function mapMessagesReasoning(request: MessagesRequest, body: Record<string, unknown>): GatewayWarning[] {
  const warnings: GatewayWarning[] = [];
  const config = request.output_config ?? {};
  const { effort, format, ...rest } = config;
  if (typeof effort === 'string' && EFFORTS[effort]) body.reasoning_effort = EFFORTS[effort];
  else if (effort !== undefined)
    warnings.push({
      code: 'dropped_parameter',
      param: 'output_config.effort',
      message: `'output_config.effort' value '${String(effort)}' has no equivalent on this model and was not sent`,
    });
  if (
    body.reasoning_effort === undefined &&
    (request.thinking?.type === 'enabled' || request.thinking?.type === 'adaptive')
  ) {
    body.reasoning_effort = effortOfBudget(request.thinking.budget_tokens);
  }
  if (format !== undefined && format !== null) {
    const schema =
      (format as { type?: unknown; schema?: unknown }).type === 'json_schema'
        ? (format as { schema?: unknown }).schema
        : undefined;
    if (schema && typeof schema === 'object')
      body.response_format = { type: 'json_schema', json_schema: { name: 'output', schema, strict: true } };
    else
      warnings.push({
        code: 'dropped_parameter',
        param: 'output_config.format',
        message: "'output_config.format' other than a json_schema has no equivalent on this model and was not sent",
      });
  }
  for (const name of Object.keys(rest)) {
    if (rest[name] === undefined || rest[name] === null) continue;
    warnings.push({
      code: 'dropped_parameter',
      param: `output_config.${name}`,
      message: `'output_config.${name}' applies to Anthropic models only and was not sent`,
    });
  }
  return warnings;
}
