import { z } from 'zod';

const count = z.number().int().nonnegative();
const modalityCounts = z
  .array(z.looseObject({ modality: z.string().optional(), tokenCount: count.optional() }))
  .optional();

/**
 * `usageMetadata` of a Gemini Live server message, tokens: prompt (input, by modality in `promptTokensDetails`),
 * response (output, by modality in `responseTokensDetails`), cached prompt tokens.
 * @see https://ai.google.dev/api/live#usagemetadata
 */
export const geminiLiveUsageSchema = z.looseObject({
  promptTokenCount: count.optional(),
  cachedContentTokenCount: count.optional(),
  responseTokenCount: count.optional(),
  totalTokenCount: count.optional(),
  promptTokensDetails: modalityCounts,
  responseTokensDetails: modalityCounts,
});

/** Gemini Live usage (see {@link geminiLiveUsageSchema}). */
export type GeminiLiveUsage = z.infer<typeof geminiLiveUsageSchema>;

const part = z.looseObject({
  text: z.string().optional(),
  inlineData: z.looseObject({ mimeType: z.string().optional(), data: z.string() }).optional(),
});

/**
 * One `BidiGenerateContentServerMessage`: `setupComplete`, `serverContent` (the model's turn: text or inline audio
 * parts, transcriptions, `turnComplete`, `interrupted`), `toolCall` (function calls), `toolCallCancellation`, `goAway`,
 * `usageMetadata`. Only the fields the translation reads are checked; others are kept.
 * @see https://ai.google.dev/api/live#bidigeneratecontentservermessage
 */
export const geminiLiveServerMessageSchema = z.looseObject({
  setupComplete: z.looseObject({}).optional(),
  serverContent: z
    .looseObject({
      modelTurn: z.looseObject({ parts: z.array(part).optional() }).optional(),
      turnComplete: z.boolean().optional(),
      generationComplete: z.boolean().optional(),
      interrupted: z.boolean().optional(),
      inputTranscription: z.looseObject({ text: z.string().optional() }).optional(),
      outputTranscription: z.looseObject({ text: z.string().optional() }).optional(),
    })
    .optional(),
  toolCall: z
    .looseObject({
      functionCalls: z
        .array(
          z.looseObject({
            id: z.string().optional(),
            name: z.string(),
            args: z.record(z.string(), z.unknown()).optional(),
          }),
        )
        .optional(),
    })
    .optional(),
  toolCallCancellation: z.looseObject({ ids: z.array(z.string()).optional() }).optional(),
  goAway: z.looseObject({ timeLeft: z.string().optional() }).optional(),
  usageMetadata: geminiLiveUsageSchema.optional(),
});

/** A Gemini Live server message (see {@link geminiLiveServerMessageSchema}). */
export type GeminiLiveServerMessage = z.infer<typeof geminiLiveServerMessageSchema>;
