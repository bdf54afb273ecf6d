import { type ProviderAdapter, imageEditEventSchema, imagesResponseSchema, readUpstreamJson } from '@switchyard/core';
import {
  buildImageForm,
  buildTranscriptionForm,
  pipeUpstreamBytes,
  readTranscriptionResult,
  readUpstreamEvents,
} from '@switchyard/provider-openai';
import type { AzureTransport } from './azure-transport.js';

/** The audio and image operations of an Azure adapter (Azure has no image variations). */
export type AzureMediaOperations = Required<
  Pick<ProviderAdapter, 'transcriptions' | 'translations' | 'speech' | 'imageGenerations' | 'imageEdits'>
>;

/**
 * The audio and image operations of `createAzure` on a deployment: `audio/transcriptions` and `audio/translations`
 * (multipart), `audio/speech` (bytes piped), `images/generations` and `images/edits` (multipart; streamed
 * `image_edit.*` events passed on).
 * @see https://learn.microsoft.com/en-us/azure/ai-services/openai/reference
 */
export function azureMediaOperations({ send, deployment, postJson, secrets }: AzureTransport): AzureMediaOperations {
  return {
    async transcriptions(request, context) {
      return readTranscriptionResult(
        context.provider,
        await send(deployment(request.model, 'audio/transcriptions'), context, buildTranscriptionForm(request)),
        context.signal,
      );
    },

    async translations(request, context) {
      return readTranscriptionResult(
        context.provider,
        await send(deployment(request.model, 'audio/translations'), context, buildTranscriptionForm(request)),
        context.signal,
      );
    },

    async speech(request, context) {
      const response = await postJson(request.model, 'audio/speech', request, context);
      return {
        contentType: String(response.headers['content-type'] ?? 'application/octet-stream'),
        body: pipeUpstreamBytes(context.provider, response.body, context.signal),
      };
    },

    async imageGenerations(request, context) {
      const response = await postJson(request.model, 'images/generations', request, context);
      return readUpstreamJson(context.provider, response, context.signal, imagesResponseSchema);
    },

    async imageEdits(request, context) {
      const response = await send(deployment(request.model, 'images/edits'), context, buildImageForm(request));
      if (request.stream !== true)
        return readUpstreamJson(context.provider, response, context.signal, imagesResponseSchema);
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
  };
}
