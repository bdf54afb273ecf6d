import { z } from 'zod';

// The fields this adapter reads of Azure OpenAI's answers that core's schemas do not cover: chat, embeddings and images
// answers are checked with core's `chatCompletionSchema`, `embeddingResponseSchema` and `imagesResponseSchema`, stream
// chunks with `checkChatCompletionChunk` (through provider-openai's stream reader), JSON transcriptions with
// provider-openai's `openaiTranscriptionJsonSchema`. Unknown fields (`prompt_filter_results`...) are kept as sent.

/**
 * `GET /openai/models`: `{data: [{id, created_at (unix s)?}]}`; a list without `data` reads as empty.
 * @see https://learn.microsoft.com/en-us/rest/api/azureopenai/models/list
 */
export const azureModelListSchema = z.looseObject({
  data: z.array(z.looseObject({ id: z.string(), created_at: z.number().optional() })).nullish(),
});
