import {
  imageEditEventSchema,
  imageEditFieldsSchema,
  imageVariationFieldsSchema,
  imagesResponseSchema,
  textCompletionRequestSchema,
  textCompletionSchema,
} from '@switchyard/core';
import type { z } from 'zod';

type JsonObject = Record<string, unknown>;

/** What {@link legacyAndImageEditPaths} needs of the document being built: its schema references and shared parts. */
export interface PathHelpers {
  /** A `$ref` to the component schema `name` made from `schema` (its input or output type). */
  ref: (name: string, schema: z.ZodType, io: 'input' | 'output') => JsonObject;
  /** The error responses every `/v1` operation has. */
  errors: JsonObject;
  /** The gateway key security requirement. */
  api: JsonObject[];
}

const binary = { type: 'string', contentMediaType: 'application/octet-stream' };

/**
 * The OpenAPI path items of `POST /v1/completions` (legacy text completions, JSON or SSE of `text_completion` chunks),
 * `POST /v1/images/edits` (multipart: `image` / `image[]`, `mask`; JSON or SSE of `image_edit.*` events) and
 * `POST /v1/images/variations` (multipart: `image`), their bodies generated from the zod schemas the gateway checks.
 * @see https://platform.openai.com/docs/api-reference/completions
 * @see https://platform.openai.com/docs/api-reference/images
 */
export function legacyAndImageEditPaths({ ref, errors, api }: PathHelpers): Record<string, JsonObject> {
  const images = ref('ImagesResponse', imagesResponseSchema, 'output');
  return {
    '/v1/completions': {
      post: {
        summary:
          'Legacy text completion (passed to upstreams that serve it, else translated through chat; JSON, or server-sent events with "stream": true)',
        security: api,
        requestBody: {
          required: true,
          content: { 'application/json': { schema: ref('CompletionRequest', textCompletionRequestSchema, 'input') } },
        },
        responses: {
          '200': {
            description:
              'A text_completion, or with stream: true a text/event-stream of text_completion chunks ending in data: [DONE]',
            content: {
              'application/json': { schema: ref('Completion', textCompletionSchema, 'output') },
              'text/event-stream': {
                schema: { type: 'string' },
                'x-sse-data': ref('Completion', textCompletionSchema, 'output'),
              },
            },
          },
          ...errors,
        },
      },
    },
    '/v1/images/edits': {
      post: {
        summary: 'Edit images with a prompt (multipart form: image or image[] files, optional mask)',
        security: api,
        requestBody: {
          required: true,
          content: {
            'multipart/form-data': {
              schema: {
                allOf: [
                  ref('ImageEditFields', imageEditFieldsSchema, 'input'),
                  {
                    type: 'object',
                    properties: { image: binary, 'image[]': { type: 'array', items: binary }, mask: binary },
                  },
                ],
              },
            },
          },
        },
        responses: {
          '200': {
            description:
              'The images, or with stream=true a text/event-stream of image_edit.partial_image and image_edit.completed events',
            content: {
              'application/json': { schema: images },
              'text/event-stream': {
                schema: { type: 'string' },
                'x-sse-data': ref('ImageEditEvent', imageEditEventSchema, 'output'),
              },
            },
          },
          ...errors,
        },
      },
    },
    '/v1/images/variations': {
      post: {
        summary: 'Variations of an image (multipart form with the image; dall-e-2 style)',
        security: api,
        requestBody: {
          required: true,
          content: {
            'multipart/form-data': {
              schema: {
                allOf: [
                  ref('ImageVariationFields', imageVariationFieldsSchema, 'input'),
                  { type: 'object', required: ['image'], properties: { image: binary } },
                ],
              },
            },
          },
        },
        responses: {
          '200': { description: 'The images', content: { 'application/json': { schema: images } } },
          ...errors,
        },
      },
    },
  };
}
