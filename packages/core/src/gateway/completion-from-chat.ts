import type { GatewayWarning } from '../adapter/gateway-warning.js';
import { invalidRequestError } from '../errors/common-errors.js';
import type { ChatCompletionChunk } from '../schemas/chat-completion-chunk.js';
import type { ChatCompletionRequest } from '../schemas/chat-completion-request.js';
import type { ChatCompletion } from '../schemas/chat-completion.js';
import type { CompletionUsage } from '../schemas/completion-usage.js';
import type { TextCompletionRequest } from '../schemas/text-completion-request.js';
import type { TextCompletion } from '../schemas/text-completion.js';

/** Most prompts a legacy completion translated through chat may carry: each is one chat call, run at once. */
export const MAX_TRANSLATED_PROMPTS = 16;

/** OpenAI's default `max_tokens` of a legacy completion (tokens), sent to chat when the client set none. */
export const LEGACY_DEFAULT_MAX_TOKENS = 16;

/** The fields of a legacy completion that chat carries over as they are. */
const CARRIED = [
  'temperature',
  'top_p',
  'n',
  'stop',
  'presence_penalty',
  'frequency_penalty',
  'seed',
  'logit_bias',
  'user',
  'stream',
  'stream_options',
] as const;
/** Fields read by the translation itself (not carried, not warned about). */
const READ = new Set<string>(['model', 'prompt', 'max_tokens', 'suffix', 'echo', 'logprobs', 'best_of', ...CARRIED]);

/**
 * The parameters of a legacy completion that a translation through chat cannot honour, each with why: `echo: true`
 * (chat never returns the prompt), `logprobs` (the legacy per-token shape has no chat equivalent on most providers),
 * `suffix` (insertion), `best_of` > 1 (server-side ranking), and token-id prompts (ids of OpenAI's tokenizer mean
 * nothing to another provider). Empty when the request can be translated.
 */
export function untranslatableParameters(request: TextCompletionRequest): { param: string; reason: string }[] {
  const refused: { param: string; reason: string }[] = [];
  if (request.echo === true) refused.push({ param: 'echo', reason: 'the prompt cannot be echoed' });
  if (request.logprobs != null)
    refused.push({ param: 'logprobs', reason: 'legacy log probabilities are not available' });
  if (request.suffix != null && request.suffix !== '')
    refused.push({ param: 'suffix', reason: 'text insertion is not available' });
  if (request.best_of != null && request.best_of > 1)
    refused.push({ param: 'best_of', reason: 'server-side best-of ranking is not available' });
  if (Array.isArray(request.prompt) && request.prompt.some((p) => typeof p !== 'string')) {
    refused.push({ param: 'prompt', reason: 'token-id prompts cannot be translated (send text)' });
  }
  return refused;
}

/**
 * The prompts of a legacy completion to translate through chat, after refusing what cannot be translated: a 400
 * `unsupported_parameter` naming the first refused parameter (the message names all of them, and `provider`), a 400
 * naming `prompt` for more than {@link MAX_TRANSLATED_PROMPTS} prompts or several prompts in one stream.
 */
export function translatablePrompts(request: TextCompletionRequest, provider: string): string[] {
  const refused = untranslatableParameters(request);
  if (refused.length > 0) {
    const list = refused.map((r) => `'${r.param}' (${r.reason})`).join(', ');
    throw invalidRequestError(
      `Unsupported parameter${refused.length > 1 ? 's' : ''} for '${request.model}' on provider '${provider}', whose legacy completions are translated through chat: ${list}.`,
      refused[0]!.param,
      'unsupported_parameter',
    );
  }
  const prompts = typeof request.prompt === 'string' ? [request.prompt] : (request.prompt as string[]);
  if (prompts.length > MAX_TRANSLATED_PROMPTS) {
    throw invalidRequestError(
      `Invalid 'prompt': at most ${MAX_TRANSLATED_PROMPTS} prompts per request on provider '${provider}' (translated through chat); got ${prompts.length}.`,
      'prompt',
      'array_above_max_length',
    );
  }
  if (prompts.length > 1 && request.stream === true) {
    throw invalidRequestError(
      `Invalid 'prompt': a stream on provider '${provider}' (translated through chat) takes one prompt; got ${prompts.length}.`,
      'prompt',
      'unsupported_parameter',
    );
  }
  return prompts;
}

/**
 * The chat request for one prompt of a legacy completion: the prompt as the user message, `max_tokens` (default
 * {@link LEGACY_DEFAULT_MAX_TOKENS}) and the sampling fields carried over. Fields chat does not know are dropped, each
 * with an `unsupported_parameter` warning through `warn`.
 */
export function chatRequestOf(
  request: TextCompletionRequest,
  prompt: string,
  warn: (warning: GatewayWarning) => void,
): ChatCompletionRequest {
  const chat: Record<string, unknown> = {
    model: request.model,
    messages: [{ role: 'user', content: prompt }],
    max_tokens: request.max_tokens ?? LEGACY_DEFAULT_MAX_TOKENS,
  };
  for (const field of CARRIED) if (request[field] != null) chat[field] = request[field];
  // A legacy `max_tokens: 0` asks for no text; chat's minimum is 1.
  if (chat.max_tokens === 0) chat.max_tokens = 1;
  for (const field of Object.keys(request)) {
    if (!READ.has(field))
      warn({
        code: 'unsupported_parameter',
        param: field,
        message: `'${field}' is not carried to chat and was dropped.`,
      });
  }
  return chat as ChatCompletionRequest;
}

/** A legacy `finish_reason` for chat's: `stop`, `length` and `content_filter` as they are; anything else `stop`. */
function finishReasonOf(reason: string | null | undefined): string | null {
  if (reason == null) return null;
  return reason === 'length' || reason === 'content_filter' ? reason : 'stop';
}

/** A legacy completion id for a chat one (`chatcmpl-x` -> `cmpl-x`). */
function completionId(id: string): string {
  return id.startsWith('chatcmpl-') ? `cmpl-${id.slice('chatcmpl-'.length)}` : id;
}

/**
 * The legacy completion of chat answers, one per prompt in order: choice `p * n + i` is choice `i` of prompt `p`'s
 * answer (as OpenAI numbers them), its text the message's `content`; usage (tokens) summed over the answers.
 * @see https://platform.openai.com/docs/api-reference/completions/object
 */
export function completionOfChat(answers: readonly ChatCompletion[], n: number): TextCompletion {
  const first = answers[0]!;
  const usages = answers.map((a) => a.usage).filter((u): u is CompletionUsage => u != null);
  const completion: TextCompletion = {
    id: completionId(first.id),
    object: 'text_completion',
    created: first.created,
    model: first.model,
    choices: answers.flatMap((answer, p) =>
      answer.choices.map((choice) => ({
        text: choice.message.content ?? '',
        index: p * n + choice.index,
        logprobs: null,
        finish_reason: finishReasonOf(choice.finish_reason) ?? 'stop',
      })),
    ),
  };
  if (typeof first.system_fingerprint === 'string') completion.system_fingerprint = first.system_fingerprint;
  if (usages.length > 0) {
    const prompt = usages.reduce((sum, u) => sum + u.prompt_tokens, 0);
    const output = usages.reduce((sum, u) => sum + u.completion_tokens, 0);
    completion.usage = { prompt_tokens: prompt, completion_tokens: output, total_tokens: prompt + output };
  }
  return completion;
}

/**
 * A chat stream as legacy `text_completion` chunks (OpenAI's stream shape: one chunk per text delta, `logprobs: null`,
 * `finish_reason` on the choice's last chunk; a usage-only chunk with no choices stays one). Chunks that carry neither
 * text, an end nor usage (a role-only first delta) are left out.
 * @see https://platform.openai.com/docs/api-reference/completions/create#completions-create-stream
 */
export async function* completionChunksOfChat(
  chunks: AsyncIterable<ChatCompletionChunk>,
): AsyncGenerator<TextCompletion> {
  for await (const chunk of chunks) {
    const choices = chunk.choices
      .filter((c) => (typeof c.delta?.content === 'string' && c.delta.content !== '') || c.finish_reason != null)
      .map((c) => ({
        text: c.delta?.content ?? '',
        index: c.index ?? 0,
        logprobs: null,
        finish_reason: finishReasonOf(c.finish_reason),
      }));
    if (choices.length === 0 && !chunk.usage) continue;
    const out: TextCompletion = {
      id: completionId(chunk.id),
      object: 'text_completion',
      created: chunk.created,
      model: chunk.model,
      choices,
    };
    if (typeof chunk.system_fingerprint === 'string') out.system_fingerprint = chunk.system_fingerprint;
    if (chunk.usage) out.usage = chunk.usage;
    yield out;
  }
}
