import type { GeminiLogprobsResult } from './gemini-types.js';

/** OpenAI's `logprobs` object of a choice: one entry per token with its top alternatives. */
export interface OpenAILogprobs {
  content: {
    token: string;
    logprob: number;
    bytes: number[] | null;
    top_logprobs: { token: string; logprob: number; bytes: number[] | null }[];
  }[];
  refusal: null;
}

const bytesOf = (token: string) => [...Buffer.from(token, 'utf8')];

/**
 * Gemini `logprobsResult` -> OpenAI `logprobs` (`{content:[{token, logprob, bytes, top_logprobs[]}], refusal:null}`):
 * the chosen candidates in order, each with the top candidates of its step. Null when there is none (the request did
 * not ask for `logprobs`).
 * @see https://ai.google.dev/api/generate-content#LogprobsResult
 * @see https://platform.openai.com/docs/api-reference/chat/object#chat/object-choices
 */
export function convertGeminiLogprobs(result: GeminiLogprobsResult | undefined): OpenAILogprobs | null {
  const chosen = result?.chosenCandidates;
  if (!chosen?.length) return null;
  return {
    content: chosen.map((candidate, i) => {
      const token = candidate.token ?? '';
      return {
        token,
        logprob: candidate.logProbability ?? 0,
        bytes: bytesOf(token),
        top_logprobs: (result?.topCandidates?.[i]?.candidates ?? []).map((top) => ({
          token: top.token ?? '',
          logprob: top.logProbability ?? 0,
          bytes: bytesOf(top.token ?? ''),
        })),
      };
    }),
    refusal: null,
  };
}
