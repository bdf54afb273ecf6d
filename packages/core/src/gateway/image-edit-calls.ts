import { invalidRequestError } from '../errors/common-errors.js';
import { type PeekedStream, peekStream } from '../routing/guard-stream.js';
import { MAX_EDIT_IMAGES, imageEditFieldsSchema, imageVariationFieldsSchema } from '../schemas/image-edit-request.js';
import { type ImageEditEvent, type ImageEditResult, isImageEditStream } from '../schemas/image-edit-result.js';
import type { ImagesResponse } from '../schemas/images-response.js';
import type { UploadedFile } from '../schemas/transcription-request.js';
import { toCallResult } from './call-result.js';
import type { CallRunner } from './call-runner.js';
import type { GatewayCallOptions, GatewayCallResult } from './gateway-options.js';
import { streamSettler } from './settle-stream.js';
import { type StreamSummary, guardedItems } from './wrap-chunk-stream.js';
import { validateRequest } from './validate-request.js';

/**
 * `POST /v1/images/edits`: `fields` are the multipart text fields, `images` the uploaded `image` / `image[]` files
 * (1..{@link MAX_EDIT_IMAGES}), `mask` the optional mask. Resolves with the images answer, or with its events when
 * `stream` is true: the upstream's own (`image_edit.partial_image`, `image_edit.completed`) where it streams them, else
 * one `image_edit.completed` per image of its answer. A stream is metered from its `completed` events' `usage`
 * (`input_tokens` as prompt tokens, `output_tokens` as completion tokens). Throws 400 naming the field (invalid fields,
 * `image` missing or too many), 404 for an unknown model, 400 `unsupported_operation`, upstream errors.
 * @see https://platform.openai.com/docs/api-reference/images/createEdit
 */
export function imageEditsCall(
  runner: CallRunner,
  fields: Record<string, unknown>,
  images: readonly UploadedFile[],
  mask: UploadedFile | undefined,
  options: GatewayCallOptions,
): Promise<GatewayCallResult<ImageEditResult>> {
  return runner.booked(fields, options, async (booked) => {
    const request = validateRequest(imageEditFieldsSchema, fields);
    if (images.length === 0) throw missingFile('image');
    if (images.length > MAX_EDIT_IMAGES)
      throw invalidRequestError(
        `Invalid 'image': at most ${MAX_EDIT_IMAGES} images; got ${images.length}.`,
        'image',
        'array_above_max_length',
      );
    const edit = (model: string) => ({ ...request, model, images: [...images], ...(mask && { mask }) });
    if (request.stream !== true) {
      return runner.simple('imageEdits', request, booked, (adapter, target, context) =>
        adapter.imageEdits!(edit(target.upstreamModel), context),
      ) as Promise<GatewayCallResult<ImageEditResult>>;
    }
    const { outcome, warnings, metered } = await runner.call<PeekedStream<ImageEditEvent>>(
      'imageEdits',
      request,
      booked,
      async (adapter, target, context) => {
        const result = await adapter.imageEdits!(edit(target.upstreamModel), context);
        return peekStream(isImageEditStream(result) ? result : completedEvents(result));
      },
      false,
    );
    const summary: StreamSummary = {};
    const ttfbMs = metered && performance.now() - metered.startedAt;
    const { settle, finished } = streamSettler({
      metered,
      target: outcome.target,
      signal: booked.signal,
      ttfbMs,
      summary: () => summary,
    });
    const events = guardedItems(outcome.value, outcome, summary, (event) => noteImageEvent(event, summary), settle);
    return { ...toCallResult<ImageEditResult>(request.model, outcome, warnings, events, metered), finished };
  });
}

/**
 * `POST /v1/images/variations` (dall-e-2 style): `fields` the multipart text fields, `image` the upload. Throws as
 * {@link imageEditsCall}.
 * @see https://platform.openai.com/docs/api-reference/images/createVariation
 */
export function imageVariationsCall(
  runner: CallRunner,
  fields: Record<string, unknown>,
  image: UploadedFile | undefined,
  options: GatewayCallOptions,
): Promise<GatewayCallResult<ImagesResponse>> {
  return runner.booked(fields, options, async (booked) => {
    const request = validateRequest(imageVariationFieldsSchema, fields);
    if (!image) throw missingFile('image');
    return runner.simple('imageVariations', request, booked, (adapter, target, context) =>
      adapter.imageVariations!({ ...request, model: target.upstreamModel, image }, context),
    );
  });
}

/** An upstream's whole answer to a streamed edit as events: one `image_edit.completed` per image (no partial images). */
async function* completedEvents(answer: ImagesResponse): AsyncGenerator<ImageEditEvent> {
  const { data, created: _created, usage, ...rest } = answer as ImagesResponse & { usage?: ImageEditEvent['usage'] };
  for (const [index, image] of data.entries()) {
    yield {
      type: 'image_edit.completed',
      ...rest,
      created_at: answer.created,
      ...(image.b64_json !== undefined && { b64_json: image.b64_json }),
      ...(image.url !== undefined && { url: image.url }),
      ...(index === data.length - 1 && usage && { usage }),
    };
  }
}

/**
 * Notes an image event in `summary`: each `image_edit.completed` counts one image (`images`), its usage adds up (tokens:
 * `input_tokens` as prompt, `output_tokens` as completion).
 */
function noteImageEvent(event: ImageEditEvent, summary: StreamSummary): ImageEditEvent {
  if (event.type === 'image_edit.completed') summary.images = (summary.images ?? 0) + 1;
  const usage = event.usage;
  if (usage && (usage.input_tokens !== undefined || usage.output_tokens !== undefined)) {
    const prompt = (summary.usage?.prompt_tokens ?? 0) + (usage.input_tokens ?? 0);
    const completion = (summary.usage?.completion_tokens ?? 0) + (usage.output_tokens ?? 0);
    summary.usage = { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
  }
  return event;
}

function missingFile(field: string) {
  return invalidRequestError(`Missing required parameter: '${field}'.`, field, 'missing_required_parameter');
}
