import {
  type ImagesResponse,
  type ProviderAdapter,
  imageEditEventSchema,
  imagesResponseSchema,
  readUpstreamJson,
  pipeUpstreamBytes,
} from '@switchyard/core';
import { buildImageForm } from './build-image-form.js';
import { buildTranscriptionForm } from './build-transcription-form.js';
import type { OpenAITransport } from './openai-transport.js';
import { readTranscriptionResult } from './read-transcription-result.js';
import { readUpstreamEvents } from './read-upstream-events.js';

/** The audio and image operations of an OpenAI adapter. */
export type OpenAIMediaOperations = Required<
  Pick<
    ProviderAdapter,
    'transcriptions' | 'translations' | 'speech' | 'imageGenerations' | 'imageEdits' | 'imageVariations'
  >
>;

/**
 * The audio and image operations of {@link createOpenAI} over `transport`: `transcriptions` and `translations`
 * (multipart; JSON or text answers), `speech` (audio bytes piped, never buffered), `imageGenerations`, `imageEdits`
 * (JSON, or `image_edit.*` events with `stream: true`) and `imageVariations`.
 * @see https://platform.openai.com/docs/api-reference/audio
 * @see https://platform.openai.com/docs/api-reference/images
 */
export function openAIMediaOperations({ send, postJson, secrets }: OpenAITransport): OpenAIMediaOperations {
  return {
    async transcriptions(request, context) {
      return readTranscriptionResult(
        context.provider,
        await send('/audio/transcriptions', context, buildTranscriptionForm(request)),
        context.signal,
      );
    },

    async translations(request, context) {
      return readTranscriptionResult(
        context.provider,
        await send('/audio/translations', context, buildTranscriptionForm(request)),
        context.signal,
      );
    },

    async speech(request, context) {
      const response = await postJson('/audio/speech', request, context);
      return {
        contentType: String(response.headers['content-type'] ?? 'application/octet-stream'),
        body: pipeUpstreamBytes(context.provider, response.body, context.signal),
      };
    },

    async imageGenerations(request, context) {
      const response = await postJson('/images/generations', request, context);
      return readUpstreamJson<ImagesResponse>(context.provider, response, context.signal, imagesResponseSchema);
    },

    async imageEdits(request, context) {
      const response = await send('/images/edits', context, buildImageForm(request));
      if (request.stream !== true)
        return readUpstreamJson<ImagesResponse>(context.provider, response, context.signal, imagesResponseSchema);
      return readUpstreamEvents(
        context.provider,
        response,
        context.signal,
        secrets,
        imageEditEventSchema,
        'an image edit event',
        (event) => event.event !== 'ping',
      );
    },

    async imageVariations(request, context) {
      const response = await send('/images/variations', context, buildImageForm(request));
      return readUpstreamJson<ImagesResponse>(context.provider, response, context.signal, imagesResponseSchema);
    },
  };
}
