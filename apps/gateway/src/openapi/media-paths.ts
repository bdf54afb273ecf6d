import {
  embeddingRequestSchema,
  embeddingResponseSchema,
  imageGenerationRequestSchema,
  imagesResponseSchema,
  moderationRequestSchema,
  moderationResponseSchema,
  rerankRequestSchema,
  rerankResponseSchema,
  speechRequestSchema,
  transcriptionFieldsSchema,
  translationFieldsSchema,
} from '@switchyard/core';
import { legacyAndImageEditPaths } from './legacy-and-image-edit-paths.js';
import type { DocumentParts, JsonObject } from './document-parts.js';

/**
 * The OpenAPI path items of the non-chat `/v1` operations: embeddings, rerank, moderations, images (generations,
 * edits, variations), legacy completions and audio (speech, transcriptions, translations).
 * @see https://platform.openai.com/docs/api-reference/embeddings
 * @see https://platform.openai.com/docs/api-reference/audio
 */
export function mediaPaths({ ref, json, errors, api, jsonOperation }: DocumentParts): Record<string, JsonObject> {
  return {
    '/v1/embeddings': jsonOperation(
      'Embeddings',
      ref('EmbeddingRequest', embeddingRequestSchema, 'input'),
      ref('EmbeddingResponse', embeddingResponseSchema, 'output'),
    ),
    '/v1/rerank': jsonOperation(
      'Rerank documents by relevance to a query (Cohere shape)',
      ref('RerankRequest', rerankRequestSchema, 'input'),
      ref('RerankResponse', rerankResponseSchema, 'output'),
    ),
    '/v1/moderations': jsonOperation(
      'Classify text and image inputs (model default omni-moderation-latest)',
      ref('ModerationRequest', moderationRequestSchema, 'input'),
      ref('ModerationResponse', moderationResponseSchema, 'output'),
    ),
    '/v1/images/generations': jsonOperation(
      'Image generation',
      ref('ImageGenerationRequest', imageGenerationRequestSchema, 'input'),
      ref('ImagesResponse', imagesResponseSchema, 'output'),
    ),
    ...legacyAndImageEditPaths({ ref, errors, api }),
    '/v1/audio/speech': {
      post: {
        summary: 'Text to speech: audio bytes with the upstream content type',
        security: api,
        requestBody: { required: true, ...json(ref('SpeechRequest', speechRequestSchema, 'input')) },
        responses: {
          '200': {
            description: 'Audio',
            content: { 'audio/*': { schema: { type: 'string', contentMediaType: 'application/octet-stream' } } },
          },
          ...errors,
        },
      },
    },
    '/v1/audio/transcriptions': {
      post: {
        summary: 'Speech to text (multipart form with the audio file)',
        security: api,
        requestBody: {
          required: true,
          content: {
            'multipart/form-data': {
              schema: {
                allOf: [
                  ref('TranscriptionFields', transcriptionFieldsSchema, 'input'),
                  {
                    type: 'object',
                    required: ['file'],
                    properties: { file: { type: 'string', contentMediaType: 'application/octet-stream' } },
                  },
                ],
              },
            },
          },
        },
        responses: {
          '200': {
            description: 'JSON (json, verbose_json, diarized_json) or text (text, srt, vtt)',
            content: {
              'application/json': {
                schema: { type: 'object', required: ['text'], properties: { text: { type: 'string' } } },
              },
              'text/plain': { schema: { type: 'string' } },
            },
          },
          ...errors,
        },
      },
    },
    '/v1/audio/translations': {
      post: {
        summary: 'Speech in any language to English text (multipart form with the audio file)',
        security: api,
        requestBody: {
          required: true,
          content: {
            'multipart/form-data': {
              schema: {
                allOf: [
                  ref('TranslationFields', translationFieldsSchema, 'input'),
                  {
                    type: 'object',
                    required: ['file'],
                    properties: { file: { type: 'string', contentMediaType: 'application/octet-stream' } },
                  },
                ],
              },
            },
          },
        },
        responses: {
          '200': {
            description: 'JSON (json, verbose_json) or text (text, srt, vtt)',
            content: {
              'application/json': {
                schema: { type: 'object', required: ['text'], properties: { text: { type: 'string' } } },
              },
              'text/plain': { schema: { type: 'string' } },
            },
          },
          ...errors,
        },
      },
    },
  };
}
