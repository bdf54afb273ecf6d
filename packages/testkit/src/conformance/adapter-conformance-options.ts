import type { AdapterOperation, ChatCompletionRequest, ProviderAdapter, ReasoningDetail } from '@switchyard/core';
import type { MockReply, RecordedRequest } from '../mock-upstream/mock-reply.js';

/** A recorded upstream reply and the mock route (`"<METHOD> <path>"`, `*` wildcards) it is served on. */
export interface RecordedExchange {
  /** e.g. `"POST /v1/chat/completions"` or `"POST /v1beta/models/*:streamGenerateContent"`. */
  route: string;
  /** The recorded reply, e.g. `{ json: fixtures.json('openai/openai-text.json') }` or `{ chunks: sseFrames(lines) }`. */
  reply: MockReply;
}

/**
 * A chat capability the conformance suite checks beside plain text: function `tools`, `vision` (image input), and JSON
 * output through `response_format` (`json_schema`, `json_object`).
 */
export type ChatCapability = 'tools' | 'vision' | 'json_schema' | 'json_object';

/**
 * What {@link describeAdapterConformance} needs to test one adapter against its own recordings. Every adapter in
 * this repo and every third-party adapter runs the same suite; only these recordings and expectations differ.
 */
export interface AdapterConformanceOptions {
  /** Suite title, e.g. `openai`. */
  name: string;
  /**
   * Builds the adapter under test pointed at the mock upstream (`baseURL` is the mock's origin, e.g.
   * `http://127.0.0.1:41234`; append the API's path prefix such as `/v1` yourself) with the given secret `apiKey`.
   * The suite checks that this key never appears in errors.
   */
  createAdapter(baseURL: string, apiKey: string): ProviderAdapter;
  /** The upstream model id the suite sends as `model`. */
  model: string;
  /**
   * The upstream model id the image cases (`imageGenerations`, `imageEdits`, `imageVariations`) send, for adapters whose
   * image operations need an image model (e.g. Bedrock's Nova Canvas `amazon.nova-canvas-v1:0`). Default: `model`.
   */
  imageModel?: string;
  /**
   * The upstream model id the embeddings case sends, for adapters whose embeddings need an embedding model (e.g.
   * Bedrock's Titan Text Embeddings `amazon.titan-embed-text-v2:0`). Default: `model`.
   */
  embeddingModel?: string;
  /** Chat completions; absent for an adapter that does not serve chat (e.g. speech or transcription only). */
  chat?: {
    /** A non-streaming completion: its recorded reply and what the translated answer must contain. */
    completion: RecordedExchange & {
      expect: {
        content: string | RegExp;
        finish_reason: string;
        usage?: { prompt_tokens: number; completion_tokens: number };
      };
    };
    /** A streaming completion (`stream: true`): the recorded stream and the assembled result. */
    stream: RecordedExchange & {
      expect: {
        content: string | RegExp;
        finish_reason: string;
        usage?: { prompt_tokens: number; completion_tokens: number };
      };
    };
    /** A recorded upstream error and the GatewayError the adapter must throw. */
    error: RecordedExchange & { expect: { status: number; message?: string | RegExp; type?: string } };
    /**
     * Checks the native request the adapter sent for the suite's canonical request: a system message plus a user
     * message, `temperature: 0.5`, `top_p: 0.9`, `max_tokens: 64`, `stop: ["END"]`, `user: "conformance-user"`.
     * Throw (e.g. with `expect`) when the translation is wrong; the suite already checks that the API key was sent
     * in some header and not in the URL.
     */
    assertRequest(request: RecordedRequest): void;
    /**
     * A recorded completion that calls a tool, and the call expected back (`name`, parsed `arguments`). The suite
     * offers a tool of that name, checks the declaration reaches the upstream, the `tool_calls` answer, and a round trip
     * (assistant `tool_calls` plus a `tool` result sent back). Without it the tools cell stays empty (no test).
     */
    toolCall?: RecordedExchange & { expect: { name: string; arguments: Record<string, unknown> } };
    /**
     * Capabilities the adapter does not have. For each, the suite checks that a request using it is refused with a 400
     * naming the field or answered with a warning naming it (the matrix then says "not supported"); the others are
     * checked as supported (vision and JSON output on the `completion` route, answered from its recording).
     */
    unsupported?: ChatCapability[];
  };
  /**
   * An upstream error that arrives after the first stream events (the provider's mid-stream error shape: an `error`
   * event, a bare JSON error body, ...). The stream must yield its first chunks, then throw a GatewayError with this
   * status (and message), never end as a success. Independently of this, the suite always checks that text which is
   * not a valid frame, after the recorded stream's first chunk, makes the stream throw.
   */
  midStreamError?: RecordedExchange & { expect: { status: number; message?: string | RegExp } };
  /** Reasoning models, for adapters of providers that have them. */
  reasoning?: {
    /**
     * A recorded stream of a thinking model (`stream: true`, with the request's `extra` fields such as
     * `reasoning_effort`): the reasoning must arrive as `delta.reasoning_content` pieces, all before the first content
     * piece, and never inside `content`.
     */
    stream: RecordedExchange & {
      extra?: Partial<ChatCompletionRequest> & Record<string, unknown>;
      expect: { reasoning: string | RegExp; content: string | RegExp; reasoning_tokens?: number };
    };
    /**
     * Signature round trip: a recorded completion whose message carries `reasoning_details` (signatures). The suite
     * sends the message back as the assistant turn of a next request (followed by a `tool` result for each tool call,
     * or a user message) on the same route, then calls `assertRequest` with that upstream request and the entries the
     * client echoed; throw when a signature is not where the provider needs it.
     */
    roundTrip?: RecordedExchange & {
      extra?: Partial<ChatCompletionRequest> & Record<string, unknown>;
      assertRequest(request: RecordedRequest, details: ReasoningDetail[]): void;
    };
  };
  /** An embeddings exchange, when the adapter implements `embeddings`. */
  embeddings?: RecordedExchange & { expect: { count: number; dimensions: number } };
  /** A transcription exchange (`json` format), when the adapter implements `transcriptions`. */
  transcriptions?: RecordedExchange & { expect: { text: string | RegExp } };
  /** A translation exchange (`json` format, English text), when the adapter implements `translations`. */
  translations?: RecordedExchange & { expect: { text: string | RegExp } };
  /**
   * A moderation exchange, when the adapter implements `moderations`: the suite sends two text inputs and expects `count`
   * results, each with `flagged`, every OpenAI category in `categories` and `category_scores`, and `flagged` as given.
   */
  moderations?: RecordedExchange & { expect: { count: number; flagged: boolean[] } };
  /** A speech exchange, when the adapter implements `speech`: the voice to ask for and the audio expected back. */
  speech?: RecordedExchange & { voice?: string; expect: { contentType: string | RegExp; bytes: Uint8Array } };
  /** An image generation exchange, when the adapter implements `imageGenerations`: how many images come back. */
  imageGenerations?: RecordedExchange & { expect: { count: number } };
  /**
   * Legacy completions (`POST /v1/completions`), when the adapter passes them through (`completions`): a whole
   * completion and a stream, each with the text, `finish_reason` and usage (tokens) expected. Adapters with chat but
   * without `completions` are checked through core's translation on their `chat.completion` exchange instead.
   */
  completions?: {
    completion: RecordedExchange & {
      expect: {
        text: string | RegExp;
        finish_reason: string;
        usage?: { prompt_tokens: number; completion_tokens: number };
      };
    };
    stream: RecordedExchange & { expect: { text: string | RegExp; finish_reason: string } };
  };
  /** An image edit exchange, when the adapter implements `imageEdits`: how many images come back. */
  imageEdits?: RecordedExchange & { expect: { count: number } };
  /** An image variation exchange, when the adapter implements `imageVariations`: how many images come back. */
  imageVariations?: RecordedExchange & { expect: { count: number } };
  /**
   * The provider's own Batch API (`ProviderAdapter.batches`), when the adapter offers it: the suite runs it against the
   * testkit's scripted OpenAI Batch API (`openAIBatchMock`) on the mock upstream. Leave it out for adapters without
   * `batches` (the gateway runs their batches itself, line by line); the suite then checks `batches` is absent.
   */
  nativeBatches?: {
    /** Path prefix of the batch API on the mock upstream: `/v1` (OpenAI) or `/openai` (Azure OpenAI). */
    prefix: string;
    expect: {
      /** The upstream's name of `/v1/chat/completions` in the batch and its lines (Azure: `/chat/completions`). */
      chatEndpoint: string;
    };
    /** An upstream error answered to `POST {prefix}/batches`, and the GatewayError status (and message) expected. */
    error: RecordedExchange & { expect: { status: number; message?: string | RegExp } };
    /** Checks one request the adapter sent to the batch API (e.g. Azure's `api-version` query); throw when wrong. */
    assertRequest?(request: RecordedRequest): void;
  };
  /**
   * A recorded upstream error for an adapter without chat, on its first served operation among transcriptions,
   * speech and images (chat adapters give `chat.error`).
   */
  operationError?: RecordedExchange & { expect: { status: number; message?: string | RegExp } };
  /** The operations this adapter does not implement; the suite checks that exactly these methods are absent. */
  unsupported: AdapterOperation[];
}
