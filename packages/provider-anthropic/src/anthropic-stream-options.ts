/** Options of `convertAnthropicStream`. */
export interface AnthropicStreamOptions {
  /** The provider's name from config, for error messages. */
  provider: string;
  /** The call's abort signal: an abort while reading is rethrown as its reason. */
  signal: AbortSignal;
  /** The choice index the chunks carry (n > 1 runs one stream per choice). Default 0. */
  choiceIndex?: number;
  /** Overrides the chunk id (so that merged streams share one). Default: Anthropic's message id. */
  id?: string;
  /** The request asked for JSON through the JSON response tool: its arguments stream as content, text is left out. */
  jsonMode?: boolean;
  /**
   * In JSON mode, stream text blocks as content too: the JSON tool was only offered (thinking forbids forcing it), so
   * the model may answer in text. Default false.
   */
  jsonText?: boolean;
  /** Secrets (the API key) redacted from error messages. */
  secrets?: readonly (string | undefined)[];
}
