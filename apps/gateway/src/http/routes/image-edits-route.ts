import { GatewayError, type ImageEditEvent, isImageEditStream, redactGatewayError } from '@switchyard/core';
import type { Router } from 'express';
import { applyCallHeaders, noteModel } from '../apply-call-headers.js';
import { callOptions } from '../call-options.js';
import { uploadImageFiles } from '../middleware/upload-image-files.js';
import { locals } from '../request-locals.js';
import { sendJson } from '../send-json.js';
import { failEventStream, openWhenAccepted, sendEventStream } from '../send-sse.js';
import { uploadedFileOf } from '../uploaded-file.js';
import type { RouteDeps } from './route-deps.js';

/**
 * `POST /v1/images/edits` (multipart: `image` or `image[]` files, optional `mask`, text fields) and
 * `POST /v1/images/variations` (multipart: one `image`): the images answer as JSON; an edit with `stream=true` as SSE,
 * one event per `image_edit.*` event (`event: <type>` + `data: <JSON>`), a failure after the first event as one
 * `event: error` with OpenAI's error body.
 * @see https://platform.openai.com/docs/api-reference/images/createEdit
 * @see https://platform.openai.com/docs/api-reference/images/createVariation
 */
export function addImageEditsRoutes(router: Router, { gateway, providerOf, secrets = [], sse }: RouteDeps): void {
  router.post('/images/edits', ...uploadImageFiles(true), async (req, res) => {
    const fields = (req.body ?? {}) as Record<string, unknown>;
    noteModel(res, fields.model, providerOf);
    const files = (req.files ?? {}) as Record<string, Express.Multer.File[]>;
    const images = [...(files.image ?? []), ...(files['image[]'] ?? [])].map((file) =>
      uploadedFileOf(file, 'image.png'),
    );
    const mask = files.mask?.[0] && uploadedFileOf(files.mask[0], 'mask.png');
    const streamed = fields.stream === 'true' || fields.stream === true;
    const options = callOptions(req, res, streamed ? openWhenAccepted(res, { secrets, ...sse }) : undefined);
    let result: Awaited<ReturnType<typeof gateway.imageEdits>>;
    try {
      result = await gateway.imageEdits(fields, images, mask, options);
    } catch (error) {
      if (failEventStream(res, error, secrets, encodeImageError(secrets))) return;
      throw error;
    }
    applyCallHeaders(res, result);
    if (!isImageEditStream(result.data)) {
      sendJson(res, result.data);
      return;
    }
    await sendEventStream(
      res,
      imageEventStream(result.data, (error) => !res.destroyed && (locals(res).error = error), secrets),
      { secrets, ...sse },
    );
  });
  router.post('/images/variations', ...uploadImageFiles(false), async (req, res) => {
    const fields = (req.body ?? {}) as Record<string, unknown>;
    noteModel(res, fields.model, providerOf);
    const file = ((req.files ?? {}) as Record<string, Express.Multer.File[]>).image?.[0];
    const result = await gateway.imageVariations(
      fields,
      file && uploadedFileOf(file, 'image.png'),
      callOptions(req, res),
    );
    applyCallHeaders(res, result);
    sendJson(res, result.data);
  });
}

/** Image edit events as named SSE events; a failure ends the stream with `event: error` (`secrets` redacted). */
async function* imageEventStream(
  events: AsyncIterable<ImageEditEvent>,
  onError: (error: unknown) => void,
  secrets: readonly string[],
): AsyncGenerator<string> {
  try {
    for await (const event of events) yield `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
  } catch (error) {
    onError(error);
    yield encodeImageError(secrets)(error);
  }
}

/** The `event: error` that ends a failed image stream, with OpenAI's error body (a generic one for unknown errors). */
function encodeImageError(secrets: readonly string[]): (error: unknown) => string {
  return (error) => {
    const body = GatewayError.isInstance(error)
      ? redactGatewayError(error, secrets).toJSON()
      : {
          error: {
            message: 'The upstream stream failed.',
            type: 'server_error',
            param: null,
            code: 'upstream_stream_error',
          },
        };
    return `event: error\ndata: ${JSON.stringify(body)}\n\n`;
  };
}
