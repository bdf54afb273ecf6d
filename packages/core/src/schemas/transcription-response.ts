/**
 * What an adapter returns for a transcription: a JSON body (`json`, `verbose_json`, `diarized_json`:
 * CreateTranscriptionResponseJson / ...VerboseJson, e.g. `{text, language?, duration? (s), words?, segments?, usage?}`)
 * or a text body (`text`, `srt`, `vtt`: `text/plain` in OpenAI's API, which the spec does not model).
 * @see https://platform.openai.com/docs/api-reference/audio/json-object
 */
export type TranscriptionResult =
  | { kind: 'json'; body: { text: string; [key: string]: unknown } }
  | { kind: 'text'; contentType: string; body: string };
