import { catalogModelName } from '@switchyard/accounts';
import type { Gateway } from '@switchyard/core';

/** Tokens written in capitals in a derived name. */
const ACRONYMS = new Set(['gpt', 'ai', 'llm', 'tts', 'stt', 'vl', 'oss', 'moe', 'api', 'xl']);
/** A release date at the end of a model id: `-20250929`, `@20250929` (Vertex), `-2025-04-14`. */
const DATE_SUFFIX = /[-@_](?:\d{8}|\d{4}-\d{2}-\d{2})$/;

/**
 * A readable name derived from a model id, for ids neither config nor the catalogue name: the part after the last `/`,
 * without a trailing release date, split at `-`, `_` and spaces; runs of one- or two-digit numbers joined with `.`
 * (`claude-opus-5-5` -> `Claude Opus 5.5`, `claude-3-5-sonnet-20241022` -> `Claude 3.5 Sonnet`); `gpt` joined to its
 * version (`gpt-4o-mini` -> `GPT-4o Mini`); known acronyms in capitals, other words capitalised. Falls back to the id
 * itself when nothing readable is left. Pure.
 */
export function readableModelName(id: string): string {
  const base = id.slice(id.lastIndexOf('/') + 1).replace(DATE_SUFFIX, '');
  const tokens = base.split(/[-_\s]+/).filter((t) => t !== '');
  const words: string[] = [];
  for (const token of tokens) {
    const previous = words.at(-1);
    if (/^\d{1,2}$/.test(token) && previous !== undefined && /^\d{1,2}(?:\.\d{1,2})*$/.test(previous))
      words[words.length - 1] = `${previous}.${token}`;
    else if (/^\d/.test(token) && previous === 'GPT') words[words.length - 1] = `GPT-${token}`;
    else if (ACRONYMS.has(token.toLowerCase())) words.push(token.toUpperCase());
    else words.push(/^[a-z]/.test(token) ? token[0]!.toUpperCase() + token.slice(1) : token);
  }
  return words.length > 0 ? words.join(' ') : id;
}

/**
 * The `display_name` of model `id` in Anthropic's model list: the `display_name` configured on the model it resolves
 * to (an alias follows to its model), else the catalogue's name of the upstream model its first deployment serves
 * ({@link catalogModelName}: `claude-sonnet-4-5-20250929` on Anthropic -> `Claude Sonnet 4.5`), else
 * {@link readableModelName} of `id`. Never throws.
 * @see https://docs.anthropic.com/en/api/models-list
 */
export function modelDisplayName(gateway: Gateway, id: string): string {
  const router = gateway.router;
  const configured = router.definitionOf(router.aliases.get(id) ?? id)?.displayName;
  if (configured) return configured;
  const target = router.peek(id)?.models[0]?.targets[0];
  const fromCatalogue = target ? catalogModelName(target.adapter.adapter, target.upstreamModel) : undefined;
  return fromCatalogue ?? readableModelName(id);
}
