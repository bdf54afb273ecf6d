import {
  type ImageEditRequest,
  type ImageVariationRequest,
  type MultipartFormBody,
  type MultipartPart,
  multipartFormBody,
} from '@switchyard/core';

/**
 * The multipart form of OpenAI's `/images/edits` and `/images/variations`, as a body ready to send (`{ body, headers }`
 * with the `content-type` naming its boundary): every text field, then the image as `image` (several images as
 * repeated `image[]`, as the official SDK sends them) and the `mask`, each with its name and content type, their bytes
 * not copied (see `multipartFormBody`).
 * @see https://platform.openai.com/docs/api-reference/images/createEdit
 * @see https://platform.openai.com/docs/api-reference/images/createVariation
 */
export function buildImageForm(request: ImageEditRequest | ImageVariationRequest): MultipartFormBody {
  const { images, mask, image, ...fields } = request as Partial<ImageEditRequest> & Partial<ImageVariationRequest>;
  const parts: MultipartPart[] = [];
  for (const [name, value] of Object.entries(fields)) {
    if (value === undefined || value === null) continue;
    parts.push({ name, value: typeof value === 'string' ? value : String(value) });
  }
  const files = images ?? (image ? [image] : []);
  for (const file of files)
    parts.push({
      name: files.length > 1 ? 'image[]' : 'image',
      data: file.data,
      filename: file.filename,
      contentType: file.contentType,
    });
  if (mask) parts.push({ name: 'mask', data: mask.data, filename: mask.filename, contentType: mask.contentType });
  return multipartFormBody(parts);
}
