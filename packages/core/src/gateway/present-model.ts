import type { NativeSSEEvent } from '../adapter/native-messages.js';
import { forgetJsonText, jsonBytesOf, replaceJsonBytes } from '../utils/raw-json-text.js';
import { replaceTopLevelString } from '../utils/replace-top-level-string.js';

/** The `model` each answer named before {@link presentModel} changed it; held weakly, so it goes with the answer. */
const upstreamAnswerModels = new WeakMap<object, string>();

/**
 * Makes an answer name the model the client asked for: when `answer` is an object whose `model` is a string other
 * than `model` (an upstream id behind an alias or a pattern, or a dated id such as `gpt-4o-mini-2024-07-18`), its
 * `model` becomes `model` and the upstream JSON text remembered for it is forgotten (see `rememberJsonText`), so the
 * client gets the changed object: when the upstream's bytes were remembered, those bytes with the new `model` written
 * in (see `replaceTopLevelString`). The upstream's id goes to the client in `x-switchyard-upstream-model`, and the id
 * the upstream's answer named stays readable with {@link upstreamAnswerModel}. Mutates and returns `answer`; anything
 * else is returned as it is.
 */
export function presentModel<T>(answer: T, model: string): T {
  if (answer === null || typeof answer !== 'object') return answer;
  const object = answer as { model?: unknown };
  if (typeof object.model === 'string' && object.model !== model) {
    upstreamAnswerModels.set(object, object.model);
    object.model = model;
    // The upstream's bytes with the new `model` written in, when that can be done exactly; else serialised again.
    const bytes = jsonBytesOf(object);
    const replaced = bytes && replaceTopLevelString(bytes, 'model', model);
    if (replaced) replaceJsonBytes(object, replaced);
    else forgetJsonText(object);
  }
  return answer;
}

/**
 * The model id an answer named as the upstream sent it (e.g. the dated `gpt-4.1-nano-2025-04-14`), before
 * {@link presentModel} made it the id the client asked for; the answer's own `model` when it was not changed;
 * `undefined` when `answer` names no model. For telemetry (`gen_ai.response.model`: the model that generated the
 * response).
 * @see https://opentelemetry.io/docs/specs/semconv/gen-ai/gen-ai-spans/
 */
export function upstreamAnswerModel(answer: unknown): string | undefined {
  if (answer === null || typeof answer !== 'object') return undefined;
  const model = upstreamAnswerModels.get(answer) ?? (answer as { model?: unknown }).model;
  return typeof model === 'string' ? model : undefined;
}

/**
 * Anthropic's stream events with `message_start.message.model` made the model the client asked for (the only event
 * naming the model); every other event, and a `message_start` that already names it or is not JSON, passes unchanged.
 * @see https://docs.anthropic.com/en/docs/build-with-claude/streaming
 */
export async function* presentMessagesModel(
  events: AsyncIterable<NativeSSEEvent>,
  model: string,
): AsyncGenerator<NativeSSEEvent> {
  for await (const event of events) {
    yield event.event === 'message_start' ? { ...event, data: withMessageModel(event.data, model) } : event;
  }
}

function withMessageModel(data: string, model: string): string {
  let parsed: { message?: { model?: unknown } };
  try {
    parsed = JSON.parse(data) as { message?: { model?: unknown } };
  } catch {
    return data;
  }
  if (
    !parsed?.message ||
    typeof parsed.message !== 'object' ||
    typeof parsed.message.model !== 'string' ||
    parsed.message.model === model
  )
    return data;
  parsed.message.model = model;
  return JSON.stringify(parsed);
}
