/**
 * The betas of several `anthropic-beta` values (comma-separated lists, e.g. the client's header and the provider
 * config's), in order, each once, trimmed; empty entries left out. Every value is kept: nothing is allow-listed.
 * @see https://docs.anthropic.com/en/api/beta-headers
 */
export function mergeAnthropicBetas(...values: readonly (string | undefined)[]): string[] {
  const betas: string[] = [];
  for (const value of values) {
    for (const beta of value?.split(',') ?? []) {
      const name = beta.trim();
      if (name && !betas.includes(name)) betas.push(name);
    }
  }
  return betas;
}

/**
 * The Anthropic headers of a pass-through call to Anthropic itself: `anthropic-version` as the client sent it (else
 * `defaultVersion`, the provider's), and `anthropic-beta` = the client's betas merged with the provider config's
 * (`configHeaders['anthropic-beta']`), absent when both are empty. Forwarded verbatim, as Anthropic's gateway protocol
 * asks (no beta is dropped: Anthropic knows its own).
 * @see https://code.claude.com/docs/en/llm-gateway-protocol
 */
export function anthropicPassThroughHeaders(
  clientHeaders: Readonly<Record<string, string>> | undefined,
  configHeaders: Readonly<Record<string, string>> | undefined,
  defaultVersion: string,
): Record<string, string> {
  const betas = mergeAnthropicBetas(clientHeaders?.['anthropic-beta'], configBeta(configHeaders));
  return {
    'anthropic-version': clientHeaders?.['anthropic-version'] || defaultVersion,
    ...(betas.length > 0 && { 'anthropic-beta': betas.join(',') }),
  };
}

/** The `anthropic-beta` of a provider's configured extra headers, whatever the case of its name. */
export function configBeta(headers: Readonly<Record<string, string>> | undefined): string | undefined {
  if (!headers) return undefined;
  for (const [name, value] of Object.entries(headers)) if (name.toLowerCase() === 'anthropic-beta') return value;
  return undefined;
}

/**
 * What one Anthropic-family upstream (Claude on Bedrock, on Vertex) rejects of Anthropic's betas, and how the
 * pass-through adapts it: `rejected` betas are left out (the upstream answers 400 `invalid beta flag` to them),
 * `renamed` ones are sent under the upstream's name. A deny-list per upstream, never an allow-list: every other beta is
 * passed on as the client sent it.
 */
export interface AnthropicBetaRules {
  rejected: readonly string[];
  renamed: Readonly<Record<string, string>>;
}

/** `betas` adapted by `rules` (see {@link AnthropicBetaRules}), each once, in order. */
export function adaptAnthropicBetas(betas: readonly string[], rules: AnthropicBetaRules): string[] {
  const adapted: string[] = [];
  for (const beta of betas) {
    if (rules.rejected.includes(beta)) continue;
    const name = rules.renamed[beta] ?? beta;
    if (!adapted.includes(name)) adapted.push(name);
  }
  return adapted;
}
