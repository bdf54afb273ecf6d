/** The session settings a Realtime client chose (from `session.update`), as the Gemini Live translation keeps them. */
export interface GeminiLiveSession {
  instructions?: string;
  /** `text` or `audio` (Gemini answers in one modality per session). */
  modality: 'text' | 'audio';
  tools: { name: string; description?: string; parameters?: unknown }[];
  /** The sample rate of the client's PCM16 input audio, Hz (OpenAI's 24,000 unless the client chose another). */
  inputRate: number;
}

/** OpenAI Realtime's PCM16 rate, in and out (Hz): the client's input rate until it chooses another. */
export const OPENAI_PCM_RATE = 24_000;

/** The `session` fields the translation maps; any other is reported as ignored. */
const MAPPED_FIELDS = new Set([
  'type',
  'model',
  'object',
  'id',
  'instructions',
  'output_modalities',
  'tools',
  'audio',
  'input_audio_format',
  'output_audio_format',
]);

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Reads a Realtime `session.update`'s `session` into {@link GeminiLiveSession}: `instructions`, `output_modalities`
 * (`["text"]` -> text, else audio), `tools` of type `function`. Returns what it refuses or ignores, by field: a tool
 * of another type, two output modalities, and every other field (voice, turn detection, audio formats, tool_choice...).
 * @see https://platform.openai.com/docs/api-reference/realtime-client-events/session/update
 */
export function readSessionUpdate(
  session: unknown,
  current: GeminiLiveSession,
): { session: GeminiLiveSession; refused: string[] } {
  const refused: string[] = [];
  if (!isRecord(session)) return { session: current, refused };
  for (const key of Object.keys(session))
    if (!MAPPED_FIELDS.has(key)) refused.push(`session.${key} (no Gemini Live setting; ignored)`);
  const next: GeminiLiveSession = { ...current };
  if (typeof session.instructions === 'string') next.instructions = session.instructions;
  if (Array.isArray(session.output_modalities)) {
    const modalities = session.output_modalities.map(String);
    if (modalities.length > 1)
      refused.push('session.output_modalities (Gemini Live answers in one modality: text or audio)');
    next.modality = modalities.includes('audio') ? 'audio' : 'text';
  }
  readAudioFormats(session, next, refused);
  if (Array.isArray(session.tools)) {
    next.tools = [];
    for (const [index, tool] of session.tools.entries()) {
      if (isRecord(tool) && tool.type === 'function' && typeof tool.name === 'string') {
        next.tools.push({
          name: tool.name,
          ...(typeof tool.description === 'string' && { description: tool.description }),
          ...(tool.parameters !== undefined && { parameters: tool.parameters }),
        });
      } else refused.push(`session.tools[${index}] (only function tools map to Gemini Live)`);
    }
  }
  return { session: next, refused };
}

/**
 * Reads the audio formats of a `session.update` into `next.inputRate`: GA `audio.input.format` (`{type: "audio/pcm",
 * rate}`, any integer rate from 8,000 to 48,000 Hz, resampled to Gemini's 16 kHz) and beta `input_audio_format`
 * (`pcm16`: 24 kHz). Refused (pushed to `refused`): G.711 input, output other than PCM16 at 24 kHz (what Gemini
 * sends), and the other `audio` settings (voice, transcription, turn detection, noise reduction, speed).
 * @see https://platform.openai.com/docs/api-reference/realtime-client-events/session/update
 */
function readAudioFormats(session: Record<string, unknown>, next: GeminiLiveSession, refused: string[]): void {
  const input = isRecord(session.audio) && isRecord(session.audio.input) ? session.audio.input : {};
  const output = isRecord(session.audio) && isRecord(session.audio.output) ? session.audio.output : {};
  if (isRecord(session.audio))
    for (const key of Object.keys(session.audio))
      if (key !== 'input' && key !== 'output') refused.push(`session.audio.${key} (ignored)`);
  for (const [side, settings] of [
    ['input', input],
    ['output', output],
  ] as const)
    for (const key of Object.keys(settings))
      if (key !== 'format') refused.push(`session.audio.${side}.${key} (no Gemini Live setting; ignored)`);
  if (input.format !== undefined) {
    const format = isRecord(input.format) ? input.format : {};
    const rate = format.rate ?? OPENAI_PCM_RATE;
    if (format.type === 'audio/pcm' && Number.isInteger(rate) && Number(rate) >= 8000 && Number(rate) <= 48_000)
      next.inputRate = Number(rate);
    else refused.push('session.audio.input.format (Gemini Live takes PCM16 audio/pcm at 8,000 to 48,000 Hz)');
  }
  if (session.input_audio_format !== undefined) {
    if (session.input_audio_format === 'pcm16') next.inputRate = OPENAI_PCM_RATE;
    else refused.push('session.input_audio_format (Gemini Live takes pcm16 only)');
  }
  const outputFormat = isRecord(output.format) ? output.format : undefined;
  if (
    (output.format !== undefined &&
      (outputFormat?.type !== 'audio/pcm' || (outputFormat.rate ?? OPENAI_PCM_RATE) !== OPENAI_PCM_RATE)) ||
    (session.output_audio_format !== undefined && session.output_audio_format !== 'pcm16')
  )
    refused.push('session output audio format (Gemini Live answers PCM16 at 24 kHz only)');
}

/**
 * The Gemini Live `setup` message of a session: `model` (`models/<id>`), `generationConfig.responseModalities`
 * (`TEXT` or `AUDIO`), `systemInstruction`, `tools[].functionDeclarations`, and with audio output its transcription
 * (`outputAudioTranscription`), relayed as the transcript deltas Realtime clients expect.
 * @see https://ai.google.dev/api/live#bidigeneratecontentsetup
 */
export function geminiLiveSetup(model: string, session: GeminiLiveSession): string {
  const setup: Record<string, unknown> = {
    model: model.startsWith('models/') ? model : `models/${model}`,
    generationConfig: { responseModalities: [session.modality === 'audio' ? 'AUDIO' : 'TEXT'] },
  };
  if (session.instructions) setup.systemInstruction = { parts: [{ text: session.instructions }] };
  if (session.tools.length > 0) setup.tools = [{ functionDeclarations: session.tools }];
  if (session.modality === 'audio') {
    setup.outputAudioTranscription = {};
    setup.inputAudioTranscription = {};
  }
  return JSON.stringify({ setup });
}
