import type { ChatCompletionChunk, UrlCitationAnnotation, WebSearchCall } from '@switchyard/core';
import type { z } from 'zod';
import type { geminiGroundingMetadataSchema } from './gemini-api.js';

/** A candidate's `groundingMetadata`, as read (the schema: `geminiGroundingMetadataSchema`). */
export type GeminiGroundingMetadata = z.infer<typeof geminiGroundingMetadataSchema>;

/**
 * The Google Search queries of a candidate's `groundingMetadata` -> canonical web searches (`message.web_search_calls`):
 * `{id: "gs_<responseId>_<candidate>_<n>", query}` for each of `webSearchQueries` from the `from`-th on (a stream
 * reports the queries it has not reported yet). Pure; never throws.
 * @see https://ai.google.dev/gemini-api/docs/google-search
 */
export function geminiWebSearchCalls(
  metadata: GeminiGroundingMetadata | undefined,
  responseId: string,
  candidate: number,
  from = 0,
): WebSearchCall[] {
  const queries = metadata?.webSearchQueries ?? [];
  return queries.slice(from).map((query, i) => ({ id: `gs_${responseId}_${candidate}_${from + i}`, query }));
}

/** The UTF-16 index (JavaScript string index) of the `byteOffset`-th UTF-8 byte of `text` (clamped to the text). */
function utf16Index(text: string, byteOffset: number): number {
  let bytes = 0;
  let i = 0;
  while (i < text.length && bytes < byteOffset) {
    const code = text.codePointAt(i)!;
    bytes += code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
    i += code >= 0x10000 ? 2 : 1;
  }
  return i;
}

/**
 * A candidate's `groundingSupports` -> OpenAI `url_citation` annotations of the message's content: one per support and
 * source it names (`groundingChunks[k].web`: `url` = its `uri`, `title` = its `title`, else the uri), `start_index` /
 * `end_index` the support's segment converted from UTF-8 byte offsets of its part's text to UTF-16 offsets of the whole
 * content. `parts` are the candidate's answer texts in order, each with its `partIndex` in the candidate's parts and
 * its UTF-16 offset in the content (a stream passes its whole text as part 0). Supports whose part is not an answer
 * text, or whose source has no web uri, are left out. Pure; never throws.
 * @see https://ai.google.dev/api/generate-content#GroundingSupport
 */
export function geminiUrlCitations(
  metadata: GeminiGroundingMetadata | undefined,
  parts: readonly { partIndex: number; offset: number; text: string }[],
): UrlCitationAnnotation[] {
  const chunks = metadata?.groundingChunks ?? [];
  const out: UrlCitationAnnotation[] = [];
  for (const support of metadata?.groundingSupports ?? []) {
    const segment = support.segment;
    const part = parts.find((p) => p.partIndex === (segment?.partIndex ?? 0));
    if (!segment || !part || segment.endIndex === undefined) continue;
    const start = part.offset + utf16Index(part.text, segment.startIndex ?? 0);
    const end = part.offset + utf16Index(part.text, segment.endIndex);
    if (end <= start) continue;
    for (const k of support.groundingChunkIndices ?? []) {
      const web = chunks[k]?.web;
      if (!web?.uri) continue;
      out.push({
        type: 'url_citation',
        url_citation: { start_index: start, end_index: end, url: web.uri, title: web.title || web.uri },
      });
    }
  }
  return out;
}

/** The answer texts of a candidate's parts (thought parts left out) with their part index and UTF-16 offset in the content. */
export function answerTextParts(
  parts: readonly { text?: string; thought?: boolean }[] | undefined,
): { partIndex: number; offset: number; text: string }[] {
  const out: { partIndex: number; offset: number; text: string }[] = [];
  let offset = 0;
  (parts ?? []).forEach((part, partIndex) => {
    if (typeof part.text !== 'string' || part.thought) return;
    out.push({ partIndex, offset, text: part.text });
    offset += part.text.length;
  });
  return out;
}

/**
 * Google Search grounding across a stream's events, per candidate index: the answer text so far (`addText`), and
 * `take(index, metadata, responseId)`, the delta to send for an event's `groundingMetadata`: `annotations` (the
 * `url_citation`s of the text so far not sent before, see {@link geminiUrlCitations}, the whole text taken as part 0)
 * and `web_search_calls` (the queries not sent before); undefined when there is nothing new.
 */
export class StreamGrounding {
  readonly #texts = new Map<number, string>();
  readonly #searches = new Map<number, number>();
  readonly #cited = new Map<number, Set<string>>();

  /** Records `text` as the next answer text of candidate `index`. */
  addText(index: number, text: string): void {
    this.#texts.set(index, (this.#texts.get(index) ?? '') + text);
  }

  /** The new grounding of candidate `index` in `metadata`, as a chunk delta; undefined when there is none. */
  take(
    index: number,
    metadata: GeminiGroundingMetadata | undefined,
    responseId: string,
  ): ChatCompletionChunk['choices'][number]['delta'] | undefined {
    if (!metadata) return undefined;
    const sent = this.#cited.get(index) ?? new Set<string>();
    this.#cited.set(index, sent);
    const annotations = geminiUrlCitations(metadata, [
      { partIndex: 0, offset: 0, text: this.#texts.get(index) ?? '' },
    ]).filter((a) => {
      const key = JSON.stringify(a);
      if (sent.has(key)) return false;
      sent.add(key);
      return true;
    });
    const searches = geminiWebSearchCalls(metadata, responseId, index, this.#searches.get(index) ?? 0);
    this.#searches.set(index, (this.#searches.get(index) ?? 0) + searches.length);
    if (annotations.length === 0 && searches.length === 0) return undefined;
    return {
      ...(annotations.length > 0 && { annotations }),
      ...(searches.length > 0 && { web_search_calls: searches }),
    };
  }
}
