import { z } from 'zod';
import type { GatewayWarning } from '../adapter/gateway-warning.js';
import type { ChatCompletionChunk } from '../schemas/chat-completion-chunk.js';

/**
 * One cached answer: a whole JSON body (`completion`: a chat completion; `embeddings`: an embeddings response, in the
 * request's `encoding_format`) or the chunks of a streamed chat completion (`chunks`, with the usage chunk when the
 * upstream sent one), plus who served it and the warnings the client got with it.
 */
export type CachedResponse = CachedBody | CachedChunks;

/** What every {@link CachedResponse} says about the call that produced it. */
interface CachedOrigin {
  /** The model id that served it (the requested one or a fallback). */
  servedModel: string;
  /** The provider name from config that served it. */
  provider: string;
  upstreamModel: string;
  warnings: GatewayWarning[];
  /** When it was stored, unix ms. */
  storedAt: number;
}

/** A cached non-streamed answer. */
export interface CachedBody extends CachedOrigin {
  kind: 'completion' | 'embeddings';
  body: unknown;
}

/** A cached streamed chat completion: every chunk as the upstream sent it, in order. */
export interface CachedChunks extends CachedOrigin {
  kind: 'chunks';
  chunks: ChatCompletionChunk[];
}

const FORMAT_VERSION = 1;

const cachedResponseSchema = z.object({
  v: z.literal(FORMAT_VERSION),
  kind: z.enum(['completion', 'embeddings', 'chunks']),
  body: z.unknown().optional(),
  chunks: z.array(z.looseObject({ choices: z.array(z.unknown()) })).optional(),
  servedModel: z.string(),
  provider: z.string(),
  upstreamModel: z.string(),
  warnings: z.array(z.object({ code: z.string(), param: z.string().optional(), message: z.string() })),
  storedAt: z.number(),
});

/** The stored text of an entry (JSON with a format version). */
export function serializeCachedResponse(entry: CachedResponse): string {
  return JSON.stringify({ v: FORMAT_VERSION, ...entry });
}

/**
 * Reads an entry written by {@link serializeCachedResponse}. Returns undefined for anything else (another format
 * version, a corrupted value), which the cache treats as a miss.
 */
export function parseCachedResponse(text: string): CachedResponse | undefined {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return undefined;
  }
  const parsed = cachedResponseSchema.safeParse(json);
  if (!parsed.success) return undefined;
  const { v: _v, body, chunks, ...origin } = parsed.data;
  if (origin.kind === 'chunks')
    return chunks ? { ...origin, kind: 'chunks', chunks: chunks as ChatCompletionChunk[] } : undefined;
  return body === undefined ? undefined : { ...origin, kind: origin.kind, body };
}

/** What a {@link CachedResponse} records about the call that produced it, from the deployment that answered. */
export function cachedOrigin(
  target: { model: string; provider: string; upstreamModel: string },
  warnings: readonly GatewayWarning[],
): Omit<CachedChunks, 'kind' | 'chunks' | 'storedAt'> {
  return {
    servedModel: target.model,
    provider: target.provider,
    upstreamModel: target.upstreamModel,
    warnings: [...warnings],
  };
}
