import { invalidRequestError } from '../errors/common-errors.js';
import { type UploadedFile, transcriptionFieldsSchema } from '../schemas/transcription-request.js';
import type { TranscriptionResult } from '../schemas/transcription-response.js';
import { translationFieldsSchema } from '../schemas/translation-request.js';
import type { CallRunner } from './call-runner.js';
import type { GatewayCallOptions, GatewayCallResult } from './gateway-options.js';
import { validateRequest } from './validate-request.js';

/**
 * `POST /v1/audio/transcriptions`: `fields` are the multipart text fields, `file` the audio upload. Throws 400 naming
 * the field (invalid fields, `file` missing), 404 for an unknown model, 400 `unsupported_operation`, upstream errors.
 * @see https://platform.openai.com/docs/api-reference/audio/createTranscription
 */
export function transcriptionsCall(
  runner: CallRunner,
  fields: Record<string, unknown>,
  file: UploadedFile | undefined,
  options: GatewayCallOptions,
): Promise<GatewayCallResult<TranscriptionResult>> {
  return runner.booked(fields, options, async (booked) => {
    const request = validateRequest(transcriptionFieldsSchema, fields);
    if (!file) throw missingFile();
    return runner.simple('transcriptions', request, booked, (adapter, target, context) =>
      adapter.transcriptions!({ ...request, model: target.upstreamModel, file }, context),
    );
  });
}

/**
 * `POST /v1/audio/translations`: as {@link transcriptionsCall}; the answer is English text (JSON or text, as for
 * transcriptions). 400 `unsupported_operation` when the model's provider does not translate audio.
 * @see https://platform.openai.com/docs/api-reference/audio/createTranslation
 */
export function translationsCall(
  runner: CallRunner,
  fields: Record<string, unknown>,
  file: UploadedFile | undefined,
  options: GatewayCallOptions,
): Promise<GatewayCallResult<TranscriptionResult>> {
  return runner.booked(fields, options, async (booked) => {
    const request = validateRequest(translationFieldsSchema, fields);
    if (!file) throw missingFile();
    return runner.simple('translations', request, booked, (adapter, target, context) =>
      adapter.translations!({ ...request, model: target.upstreamModel, file }, context),
    );
  });
}

function missingFile() {
  return invalidRequestError("Missing required parameter: 'file'.", 'file', 'missing_required_parameter');
}
