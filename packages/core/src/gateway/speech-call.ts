import { guardStream, peekStream } from '../routing/guard-stream.js';
import { type SpeechResult, speechRequestSchema } from '../schemas/speech-request.js';
import type { CallRunner } from './call-runner.js';
import { toCallResult } from './call-result.js';
import type { GatewayCallOptions, GatewayCallResult } from './gateway-options.js';
import { validateRequest } from './validate-request.js';

/**
 * `POST /v1/audio/speech`: audio bytes streamed with the upstream's content type. The attempt is held until the audio
 * ends: the first bytes count as the first byte, then the model's `idleMs` bounds every gap and `totalMs` the whole
 * call; past either, the body throws 504 `upstream_timeout`.
 * @see https://platform.openai.com/docs/api-reference/audio/createSpeech
 */
export function speechCall(
  runner: CallRunner,
  body: unknown,
  options: GatewayCallOptions,
): Promise<GatewayCallResult<SpeechResult>> {
  return runner.booked(body, options, async (booked) => {
    const request = validateRequest(speechRequestSchema, body);
    const { outcome, warnings, metered } = await runner.call(
      'speech',
      request,
      booked,
      async (adapter, target, context) => {
        const result = await adapter.speech!({ ...request, model: target.upstreamModel }, context);
        return { contentType: result.contentType, peeked: await peekStream(result.body) };
      },
      false,
    );
    const { contentType, peeked } = outcome.value;
    return toCallResult(request.model, outcome, warnings, { contentType, body: guardStream(peeked, outcome) }, metered);
  });
}
