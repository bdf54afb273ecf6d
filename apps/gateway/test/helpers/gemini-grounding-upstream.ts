import { type MockReply, type RecordedRequest, sseFrames, testkitFixtures } from '@switchyard/testkit';

/** The recorded grounded Gemini answer (Google Search, three cited sentences, one query). */
export const GROUNDED = testkitFixtures().json<{
  candidates: {
    content: { parts: { text: string }[] };
    groundingMetadata: { webSearchQueries: string[]; groundingChunks: { web: { uri: string; title: string } }[] };
  }[];
}>('google/unary-success-google-search-grounding.json');
/** The grounded answer's text. */
export const GROUNDED_TEXT = GROUNDED.candidates[0]!.content.parts[0]!.text;

/**
 * A scripted Gemini `generateContent` / `streamGenerateContent`: when the request declares the Google Search tool
 * (`{googleSearch: {}}`) it answers with the recorded grounded answer (streamed as two events, the grounding metadata
 * and finish reason on the second, as Gemini sends them), else with a plain text.
 * @see https://ai.google.dev/gemini-api/docs/google-search
 */
export function geminiGroundingReply(stream: boolean) {
  return (request: RecordedRequest): MockReply => {
    const body = request.json as { tools?: Record<string, unknown>[] };
    const grounded = body.tools?.some((tool) => 'googleSearch' in tool) === true;
    const answer = grounded
      ? GROUNDED
      : {
          candidates: [{ content: { role: 'model', parts: [{ text: 'No search.' }] }, finishReason: 'STOP', index: 0 }],
          usageMetadata: { promptTokenCount: 3, candidatesTokenCount: 2, totalTokenCount: 5 },
        };
    if (!stream) return { json: answer };
    if (!grounded) return { chunks: sseFrames([JSON.stringify(answer)], 'gemini') };
    const [candidate] = GROUNDED.candidates as Record<string, unknown>[];
    const { groundingMetadata, finishReason, ...rest } = candidate as Record<string, unknown>;
    const cut = 40;
    const first = {
      ...GROUNDED,
      candidates: [{ ...rest, content: { role: 'model', parts: [{ text: GROUNDED_TEXT.slice(0, cut) }] } }],
    };
    const second = {
      ...GROUNDED,
      candidates: [
        {
          ...rest,
          content: { role: 'model', parts: [{ text: GROUNDED_TEXT.slice(cut) }] },
          finishReason,
          groundingMetadata,
        },
      ],
    };
    return { chunks: sseFrames([JSON.stringify(first), JSON.stringify(second)], 'gemini') };
  };
}
