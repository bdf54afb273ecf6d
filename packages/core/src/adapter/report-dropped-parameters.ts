import { invalidRequestError } from '../errors/common-errors.js';
import type { AdapterCallContext } from './adapter-context.js';
import type { GatewayWarning } from './gateway-warning.js';

/**
 * The top-level fields of `request` that are set (not `undefined` or `null`) and not in `handled` (the fields an adapter
 * translates, or checks and rejects when their value matters): what the adapter would drop. Unknown fields (new OpenAI
 * parameters) are listed too, so that nothing is dropped silently.
 */
export function droppedParameters(request: object, handled: ReadonlySet<string>): string[] {
  const dropped: string[] = [];
  for (const [name, value] of Object.entries(request)) {
    if (value === undefined || value === null || handled.has(name)) continue;
    dropped.push(name);
  }
  return dropped;
}

/**
 * Reports every request field an adapter does not send upstream (see {@link droppedParameters}): one
 * `dropped_parameter` warning per field naming it and the provider, which the gateway sends in `x-switchyard-warning`.
 * Returns the names reported.
 */
export function reportDroppedParameters(
  request: object,
  handled: ReadonlySet<string>,
  context: Pick<AdapterCallContext, 'warn' | 'provider'>,
): string[] {
  const dropped = droppedParameters(request, handled);
  for (const name of dropped) {
    context.warn({
      code: 'dropped_parameter',
      param: name,
      message: `'${name}' is not supported by provider '${context.provider}' and was not sent`,
    });
  }
  return dropped;
}

/** A parameter refused with 400 when its value would change the answer (`isSet`), with the reason given to the client. */
export interface RefusedParameter {
  /** The request field, e.g. `logit_bias`. */
  param: string;
  /** True when the value is not neutral (a neutral value, e.g. a penalty of 0, is accepted and not sent). */
  isSet: (value: unknown) => boolean;
  /** Why it cannot be honoured, one sentence, e.g. `Converse has no logit bias.` */
  why: string;
}

/** Value tests for {@link RefusedParameter.isSet} that the adapters share. */
export const nonNeutral = {
  /** A number other than 0 (penalties). */
  nonZero: (value: unknown) => typeof value === 'number' && value !== 0,
  /** A number above 0 (`top_logprobs`). */
  positive: (value: unknown) => typeof value === 'number' && value > 0,
  /** A number above 1 (`n`; Anthropic's `temperature`). */
  aboveOne: (value: unknown) => typeof value === 'number' && value > 1,
  /** `true` (`logprobs`). */
  isTrue: (value: unknown) => value === true,
  /** An object with at least one key (`logit_bias`). */
  nonEmptyObject: (value: unknown) => typeof value === 'object' && value !== null && Object.keys(value).length > 0,
  /** Output modalities other than text (`modalities`). */
  nonTextModalities: (value: unknown) => Array.isArray(value) && value.some((m) => m !== 'text'),
  /** Any value at all (`audio`, `functions`, ...). */
  present: (value: unknown) => value != null,
} as const;

/**
 * OpenAI's legacy function calling (`functions`, `function_call`), which no translating adapter maps: refused
 * whenever set, pointing to `tools` / `tool_choice`. Adapters add these to their own {@link RefusedParameter} lists.
 * @see https://platform.openai.com/docs/api-reference/chat/create#chat-create-functions
 */
export const LEGACY_FUNCTION_CALLING_REFUSED: readonly RefusedParameter[] = [
  { param: 'functions', isSet: nonNeutral.present, why: "legacy function calling is not translated; use 'tools'." },
  {
    param: 'function_call',
    isSet: nonNeutral.present,
    why: "legacy function calling is not translated; use 'tool_choice'.",
  },
];

/** What {@link checkRequestParameters} checks a request against. */
export interface ParameterRules {
  /** Who cannot honour the parameters, in messages: e.g. `Anthropic models`, `Bedrock models`. */
  upstream: string;
  /** The fields the adapter translates (or accepts at a neutral value). */
  handled: ReadonlySet<string>;
  /** Fields rejected with 400 when their value is not neutral. */
  refused?: readonly RefusedParameter[];
}

/**
 * The one rule for parameters an upstream cannot honour, applied before anything is sent: a parameter the client
 * relies on for what the answer contains (`rules.refused`, at a value that is not neutral) is rejected with 400
 * `unsupported_parameter` naming it; every other field the adapter does not read (`rules.handled`) is only a hint or
 * concerns OpenAI's platform (`seed`, `service_tier`, `store`, `metadata`, unknown fields...), so it is dropped and
 * returned as an `unsupported_parameter` warning naming it (the gateway sends warnings in `x-switchyard-warning`).
 * Throws the 400 GatewayError; returns the warnings.
 */
export function checkRequestParameters(request: object, rules: ParameterRules): GatewayWarning[] {
  const fields = request as Record<string, unknown>;
  for (const { param, isSet, why } of rules.refused ?? []) {
    if (isSet(fields[param]))
      throw invalidRequestError(
        `'${param}' is not supported by ${rules.upstream}: ${why}`,
        param,
        'unsupported_parameter',
      );
  }
  return droppedParameters(request, rules.handled).map((param) => ({
    code: 'unsupported_parameter',
    param,
    message: `'${param}' is not supported by ${rules.upstream} and was ignored.`,
  }));
}
