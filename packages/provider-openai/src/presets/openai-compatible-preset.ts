import type {
  AdapterCallContext,
  AdapterOperation,
  ChatCompletion,
  ChatCompletionChunk,
  ChatCompletionRequest,
} from '@switchyard/core';
import type { ModerationDialect } from '../moderation-dialect.js';

/**
 * Request and answer fix-ups one OpenAI-compatible host needs on top of the plain OpenAI wire format. Each hook is
 * optional and pure: it returns the (possibly new) object and never mutates its input.
 */
export interface ChatQuirks {
  /**
   * Called on every chat request before it is sent. May rewrite it (e.g. tool-call ids) or throw a 400 GatewayError
   * naming a parameter the host cannot honour.
   */
  prepareRequest?(request: ChatCompletionRequest, context: AdapterCallContext): ChatCompletionRequest;
  /** Called on a non-streamed completion before it is returned. */
  fixCompletion?(completion: ChatCompletion): ChatCompletion;
  /** Called on every streamed chunk before it is yielded. */
  fixChunk?(chunk: ChatCompletionChunk): ChatCompletionChunk;
}

/**
 * A named preset of the OpenAI-compatible adapter (`adapter: groq` in config): one declarative entry with the host's
 * default base URL, the environment variables that enable it, the operations it serves and the quirks it needs.
 * Adding a host is one entry in `OPENAI_COMPATIBLE_PRESETS` plus one recorded fixture.
 */
export interface OpenAICompatiblePreset {
  /** The `adapter:` name, e.g. `groq`. */
  readonly name: string;
  /** Human name for docs and the conformance matrix, e.g. `Groq`. */
  readonly title: string;
  /** Default base URL including the version path, e.g. `https://api.groq.com/openai/v1`. */
  readonly baseURL: string;
  /**
   * The variable holding the API key (e.g. `GROQ_API_KEY`): with no config file, the preset is enabled when it is
   * set. Absent for local servers that need no key (Ollama, vLLM, LM Studio).
   */
  readonly apiKeyEnv?: string;
  /**
   * The variable overriding the base URL (e.g. `OLLAMA_BASE_URL`). For a keyless preset it is also what enables it
   * with no config file.
   */
  readonly baseURLEnv: string;
  /** The operations the host serves; the adapter built from the preset has exactly these methods. */
  readonly operations: readonly AdapterOperation[];
  /**
   * Extra config keys that become request headers, e.g. OpenRouter's `{ http_referer: 'HTTP-Referer', x_title:
   * 'X-Title' }` (its app attribution). Each key is an optional string in the preset's settings.
   */
  readonly headerSettings?: Readonly<Record<string, string>>;
  /** Request/answer fix-ups; see {@link ChatQuirks}. */
  readonly quirks?: ChatQuirks;
  /** How the host speaks `/moderations`, when it serves them in its own shape (Mistral). */
  readonly moderation?: ModerationDialect;
  /** Where the host documents its OpenAI compatibility. */
  readonly docs: string;
}
