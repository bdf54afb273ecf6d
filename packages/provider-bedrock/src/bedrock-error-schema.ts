import { lenientField } from '@switchyard/core';
import { z } from 'zod';

/**
 * A Bedrock error body, also the payload of a stream's exception frame (`:message-type: exception`): the message
 * under either spelling (`message`, `Message`) and the exception name in `__type` (e.g.
 * `com.amazon.coral.service#UnrecognizedClientException`; HTTP answers also name it in `x-amzn-errortype`). Lenient:
 * a field of the wrong type is left out, unknown fields kept.
 * @see https://docs.aws.amazon.com/bedrock/latest/APIReference/CommonErrors.html
 */
export const bedrockErrorBodySchema = z.looseObject({
  message: lenientField(z.string()),
  Message: lenientField(z.string()),
  __type: lenientField(z.string()),
});

/** A Bedrock error body as read by {@link bedrockErrorBodySchema}. */
export type BedrockErrorBody = z.infer<typeof bedrockErrorBodySchema>;
