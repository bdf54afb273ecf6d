/**
 * What a deployment's model can do, as `capabilities: [...]` in config:
 * - `tools`: function calling (`tools`);
 * - `vision`: image input (`image_url` content parts);
 * - `json_schema`: structured outputs (`response_format: {type: "json_schema"}`);
 * - `audio`: audio input or output (`input_audio` content parts, `modalities: ["audio"]`, `audio`);
 * - `reasoning`: reasoning effort control (`reasoning_effort`).
 */
export type ModelCapability = 'tools' | 'vision' | 'json_schema' | 'audio' | 'reasoning';

/** Every {@link ModelCapability}, in documentation order. */
export const MODEL_CAPABILITIES: readonly ModelCapability[] = ['tools', 'vision', 'json_schema', 'audio', 'reasoning'];
