/** The session settings a Realtime client chose (from `session.update`), as the Gemini Live translation keeps them. */
export interface GeminiLiveSession {
  instructions?: string;
  /** `text` or `audio` (Gemini answers in one modality per session). */
  modality: 'text' | 'audio';
  tools: { name: string; description?: string; parameters?: unknown }[];
}

/** The `session` fields the translation maps; any other is reported as ignored. */
const MAPPED_FIELDS = new Set(['type', 'model', 'object', 'id', 'instructions', 'output_modalities', 'tools']);

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
