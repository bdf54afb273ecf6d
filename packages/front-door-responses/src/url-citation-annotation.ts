import { type MessageAnnotation, urlCitationAnnotationSchema } from '@switchyard/core';

/**
 * A Responses `url_citation` annotation of an `output_text` part: `{type:"url_citation", start_index, end_index, url,
 * title}`, the indexes (UTF-16 offsets) in the part's text.
 * @see https://platform.openai.com/docs/api-reference/responses/object#responses-object-output-output_message-content-output_text-annotations
 */
export interface UrlCitation {
  type: 'url_citation';
  start_index: number;
  end_index: number;
  url: string;
  title: string;
}

/**
 * A chat message annotation (`{type:"url_citation", url_citation:{start_index, end_index, url, title}}`, indexes in the
 * whole chat content) -> the Responses annotation of a part whose text starts at `offset` in that content and is
 * `length` long: indexes shifted by `offset`; undefined for another annotation type or a span outside the part. Pure.
 * @see https://platform.openai.com/docs/api-reference/chat/object#chat/object-choices-message-annotations
 */
export function toUrlCitation(
  annotation: MessageAnnotation,
  offset = 0,
  length = Number.POSITIVE_INFINITY,
): UrlCitation | undefined {
  const parsed = urlCitationAnnotationSchema.safeParse(annotation);
  if (!parsed.success) return undefined;
  const { start_index, end_index, url, title } = parsed.data.url_citation;
  const start = start_index - offset;
  const end = end_index - offset;
  if (start < 0 || end > length || end <= start) return undefined;
  return { type: 'url_citation', start_index: start, end_index: end, url, title };
}
