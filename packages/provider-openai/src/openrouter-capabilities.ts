import { type ReportedCapabilities, reportCapabilities } from '@switchyard/core';

/** One entry of an OpenAI-compatible model list, with the fields OpenRouter adds. */
export interface ListedModel {
  id: string;
  created?: number;
  /** OpenRouter: `{input_modalities: ["text", "image", "audio", "file", ...], output_modalities: [...]}`. */
  architecture?: { input_modalities?: unknown } | null;
  /** OpenRouter: request parameters the model accepts, e.g. `tools`, `structured_outputs`, `reasoning`. */
  supported_parameters?: unknown;
}

/**
 * The capabilities an OpenRouter-style model list reports for one model
 * (https://openrouter.ai/docs/api-reference/models/get-models): `tools` from `supported_parameters` containing
 * `tools`, `json_schema` from `structured_outputs`, `reasoning` from `reasoning`, `vision` and `audio` from
 * `architecture.input_modalities` containing `image` / `audio`. Each half is used only when the list has that field;
 * plain OpenAI-style lists (`{id, created}` only) report nothing (undefined).
 */
export function listedCapabilities(model: ListedModel): ReportedCapabilities | undefined {
  const parameters = Array.isArray(model.supported_parameters) ? (model.supported_parameters as unknown[]) : undefined;
  const inputs = Array.isArray(model.architecture?.input_modalities)
    ? (model.architecture.input_modalities as unknown[])
    : undefined;
  return reportCapabilities({
    tools: parameters?.includes('tools'),
    json_schema: parameters?.includes('structured_outputs'),
    reasoning: parameters?.includes('reasoning'),
    vision: inputs?.includes('image'),
    audio: inputs?.includes('audio'),
  });
}
