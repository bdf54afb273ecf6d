/** Price of a model in USD per million tokens. */
export interface ModelPrice {
  /** USD per 1,000,000 prompt (input) tokens. */
  input: number;
  /** USD per 1,000,000 completion (output) tokens. */
  output: number;
}

/**
 * A model clients may ask for by `id`, served by `provider` (a key of the gateway's providers) under the
 * upstream's own model id `upstream` (defaults to `id`).
 */
export interface ModelDefinition {
  id: string;
  provider: string;
  upstream?: string;
  price?: ModelPrice;
}
