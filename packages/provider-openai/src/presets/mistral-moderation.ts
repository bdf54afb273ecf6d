import { type ModerationResponse, checkUpstreamShape, invalidRequestError } from '@switchyard/core';
import { z } from 'zod';
import type { ModerationDialect } from '../moderation-dialect.js';

/** Mistral's moderation answer: one result per input over its own nine categories; `usage` in tokens. */
const mistralModerationSchema = z.looseObject({
  id: z.string(),
  model: z.string(),
  results: z.array(
    z.looseObject({ categories: z.record(z.string(), z.boolean()), category_scores: z.record(z.string(), z.number()) }),
  ),
  usage: z.looseObject({ prompt_tokens: z.number().int().nonnegative() }).optional(),
});

/** OpenAI's moderation categories (CreateModerationResponse: every result carries all of them). */
export const OPENAI_MODERATION_CATEGORIES = [
  'harassment',
  'harassment/threatening',
  'hate',
  'hate/threatening',
  'illicit',
  'illicit/violent',
  'self-harm',
  'self-harm/intent',
  'self-harm/instructions',
  'sexual',
  'sexual/minors',
  'violence',
  'violence/graphic',
] as const;

/** Mistral's categories that have an OpenAI counterpart, and that counterpart. */
const TO_OPENAI: Readonly<Record<string, (typeof OPENAI_MODERATION_CATEGORIES)[number]>> = {
  sexual: 'sexual',
  hate_and_discrimination: 'hate',
  violence_and_threats: 'violence',
  dangerous_and_criminal_content: 'illicit',
  selfharm: 'self-harm',
};

/**
 * Mistral's `POST /v1/moderations` (`mistral-moderation-latest`) behind OpenAI's moderation API. Request: `input` as a
 * string or strings (text parts become strings); image parts are refused with a 400 naming `input` (Mistral's
 * classifier reads text only); other fields are sent as they are. Answer: every OpenAI category, set from its Mistral
 * counterpart (`sexual`, `hate_and_discrimination` -> `hate`, `violence_and_threats` -> `violence`,
 * `dangerous_and_criminal_content` -> `illicit`, `selfharm` -> `self-harm`) and false / 0 for those Mistral does not
 * classify, plus Mistral's own nine categories under their own names; `flagged` when any Mistral category is true;
 * Mistral's `usage.prompt_tokens` as `usage` (`completion_tokens` 0) for metering.
 * @see https://docs.mistral.ai/api/#tag/classifiers/operation/moderations_v1_moderations_post
 */
export const mistralModerationDialect: ModerationDialect = {
  prepareRequest(request) {
    if (typeof request.input === 'string' || request.input.every((item) => typeof item === 'string')) return request;
    const input = request.input.map((part, index) => {
      if (typeof part === 'string') return part;
      if (part.type === 'text') return part.text;
      throw invalidRequestError(
        `Invalid 'input[${index}]': Mistral's moderation classifies text only, not images (type '${part.type}').`,
        `input[${index}]`,
        'unsupported_input',
      );
    });
    return { ...request, input };
  },
  readAnswer(provider, answer) {
    const mistral = checkUpstreamShape(provider, mistralModerationSchema, answer);
    const results = mistral.results.map((result) => {
      const categories: Record<string, boolean> = {};
      const scores: Record<string, number> = {};
      for (const name of OPENAI_MODERATION_CATEGORIES) {
        categories[name] = false;
        scores[name] = 0;
      }
      for (const [name, flagged] of Object.entries(result.categories)) {
        categories[name] = flagged;
        const openai = TO_OPENAI[name];
        if (openai) categories[openai] = flagged;
      }
      for (const [name, score] of Object.entries(result.category_scores)) {
        scores[name] = score;
        const openai = TO_OPENAI[name];
        if (openai) scores[openai] = score;
      }
      return { flagged: Object.values(result.categories).some(Boolean), categories, category_scores: scores };
    });
    const prompt = mistral.usage?.prompt_tokens;
    const response: ModerationResponse = { id: mistral.id, model: mistral.model, results };
    return prompt === undefined
      ? response
      : { ...response, usage: { prompt_tokens: prompt, completion_tokens: 0, total_tokens: prompt } };
  },
};
