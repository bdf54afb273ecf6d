import {
  type ChatCompletion,
  type ChatCompletionChunk,
  type ChatCompletionMessage,
  GatewayError,
  type GatewayWarning,
  type NativeSSEEvent,
  invalidRequestError,
  validateRequest,
} from '@switchyard/core';
import { convertChatCompletion } from './convert-chat-completion.js';
import { convertChatStream } from './convert-chat-stream.js';
import { convertItemsToChatMessages, declaredTools } from './convert-items-to-chat-messages.js';
import { CHAT_TO_RESPONSES_PARAM, convertResponsesRequest } from './convert-responses-request.js';
import type { HostedToolSupport } from './convert-responses-tools.js';
import { type InputItemsQuery, type ResponseItemList, listInputItems } from './list-input-items.js';
import { type StoredItem, loadConversation, resolveItemReferences } from './load-conversation.js';
import { nativeRequestBody, storedNativeInputItems, toUpstreamItem } from './native-request.js';
import { passNativeResponseEvents, presentNativeResponse } from './native-response.js';
import { newId } from './new-id.js';
import { type StoredInputItem, normalizeInputItems } from './normalize-input-items.js';
import { encodeResponseErrorEvent } from './map-response-error-code.js';
import { type ResponseObject, newResponseObject } from './response-object.js';
import type { ResponseStore } from './response-store.js';
import { type ResponsesStreamEvent, encodeResponsesEvent } from './responses-stream-event.js';
import { type ResponsesRequest, responsesRequestSchema } from './responses-request-schema.js';
import { ToolNameMap } from './responses-tool-names.js';

/** Options of {@link ResponsesFrontDoor}. */
export interface ResponsesFrontDoorOptions {
  /** Where `store: true` responses are kept. */
  store: ResponseStore;
  /** How long a stored response is kept, ms. Default 30 days. */
  retentionMs?: number;
}

/** A validated Responses request, ready to run as a chat completion. */
export interface PreparedResponse {
  request: ResponsesRequest;
  /** The canonical chat completion request body to give `Gateway.chatCompletions`. */
  chatRequest: Record<string, unknown>;
  /** The in-progress response object (id, echoed settings). */
  response: ResponseObject;
  owner: string;
  /** This request's input as stored (`item_reference` items as sent). */
  inputItems: StoredInputItem[];
  /** The conversation before it (from `previous_response_id`), references resolved. */
  history: StoredItem[];
  /** The function names declared upstream, to map the model's calls back (namespaces, custom tools). */
  names: ToolNameMap;
  /** What the translation dropped (hosted tools, reasoning items, `include` values), for `x-switchyard-warning`. */
  warnings: GatewayWarning[];
}

/** A validated Responses request, ready to pass through to an upstream that speaks the Responses API. */
export interface PreparedNativeResponse {
  request: ResponsesRequest;
  /** The body to give `Gateway.openaiResponses` (`previous_response_id` expanded into `input`). */
  upstreamRequest: Record<string, unknown> & { model: string };
  owner: string;
  inputItems: StoredInputItem[];
  history: StoredItem[];
}

/** The answer of `DELETE /v1/responses/{id}`. */
export interface DeletedResponse {
  id: string;
  object: 'response';
  deleted: true;
}

const DEFAULT_RETENTION_MS = 30 * 24 * 60 * 60 * 1000;

function notFound(id: string): GatewayError {
  return new GatewayError({
    status: 404,
    type: 'invalid_request_error',
    param: null,
    code: null,
    message: `Response with id '${id}' not found.`,
  });
}

/**
 * The Responses API front door, framework-free: turns `POST /v1/responses` into a canonical chat completion request
 * (with the conversation of `previous_response_id` prepended), turns the chat answer or chunk stream back into a
 * `response` object or Responses events, and keeps stored responses per owner (the key that made them).
 * Routing, retries, fallbacks, limits and metering stay with the gateway that runs the chat request.
 * @see https://platform.openai.com/docs/api-reference/responses
 */
export class ResponsesFrontDoor {
  readonly store: ResponseStore;
  readonly retentionMs: number;

  constructor(options: ResponsesFrontDoorOptions) {
    this.store = options.store;
    this.retentionMs = options.retentionMs ?? DEFAULT_RETENTION_MS;
  }

  /**
   * Validates a `POST /v1/responses` body for `owner` and builds the chat request (`hosted`: which hosted tools the
   * serving provider maps, see `convertResponsesTools`). Throws 400 naming the field for invalid or untranslatable
   * input, 400 `previous_response_not_found` when `previous_response_id` (or a response before it) is unknown,
   * expired, evicted or another key's, 400 `item_not_found` naming `input[i]` for such an `item_reference`, and 400
   * naming `store` when the input alone is larger than a key may keep.
   */
  async prepare(body: unknown, owner: string, hosted: HostedToolSupport = {}): Promise<PreparedResponse> {
    const request = validateRequest(responsesRequestSchema, body);
    const inputItems = normalizeInputItems(request.input);
    this.#checkQuota(request, inputItems);
    const history = await loadConversation(this.store, request.previous_response_id, owner);
    const current = await resolveItemReferences(inputItems, this.store, owner, (index) => `input[${index}]`);
    const warnings: GatewayWarning[] = [];
    const names = new ToolNameMap();
    const historyMessages: ChatCompletionMessage[] = convertItemsToChatMessages(
      history,
      'previous_response_id',
      warnings,
    );
    const inputMessages = convertItemsToChatMessages(current, 'input', warnings);
    const extraTools = declaredTools([...history, ...current]);
    const withTools =
      extraTools.length > 0 ? { ...request, tools: [...(request.tools ?? []), ...extraTools] } : request;
    const chatRequest = convertResponsesRequest(withTools, historyMessages, inputMessages, { names, warnings, hosted });
    const response = newResponseObject(newId('resp'), request, Math.floor(Date.now() / 1000), request.store !== false);
    return { request, chatRequest, response, owner, inputItems, history, names, warnings };
  }

  /**
   * Validates a `POST /v1/responses` body (throws 400 naming the field), so that the caller can choose between
   * {@link prepare} (translation) and {@link prepareNative} (pass-through) by its `model`.
   */
  validate(body: unknown): ResponsesRequest {
    return validateRequest(responsesRequestSchema, body);
  }

  /**
   * Builds the pass-through request for an upstream that speaks the Responses API: the client's body as it is, with
   * `previous_response_id` (a response of the gateway's store, made by any provider) expanded into `input`. Input items
   * the translation would reject are kept; `item_reference` items are resolved from the gateway's store (the upstream
   * never sees the gateway's ids). Throws 400 as {@link prepare}.
   */
  async prepareNative(body: unknown, owner: string): Promise<PreparedNativeResponse> {
    const request = validateRequest(responsesRequestSchema, body);
    const inputItems = storedNativeInputItems(request.input);
    this.#checkQuota(request, inputItems);
    const history = await loadConversation(this.store, request.previous_response_id, owner);
    const input = await this.#nativeInput(request, owner);
    return { request, upstreamRequest: nativeRequestBody(request, history, input), owner, inputItems, history };
  }

  /** The request's input with `item_reference` items replaced by the stored items (undefined when it has none). */
  async #nativeInput(request: ResponsesRequest, owner: string): Promise<unknown[] | undefined> {
    const input = request.input;
    if (typeof input === 'string' || !input.some((item) => item.type === 'item_reference')) return undefined;
    const resolved = await resolveItemReferences(input, this.store, owner, (index) => `input[${index}]`);
    return resolved
      .map((item, index) => (input[index]?.type === 'item_reference' ? toUpstreamItem(item as StoredItem) : item))
      .filter((item) => item !== undefined);
  }

  /** Throws 400 naming `store` when a stored request's input alone is larger than a key may keep in the store. */
  #checkQuota(request: ResponsesRequest, inputItems: readonly StoredInputItem[]): void {
    if (request.store === false) return;
    const limit = this.store.limits.maxBytesPerOwner;
    const bytes = Buffer.byteLength(JSON.stringify(inputItems));
    if (bytes <= limit) return;
    throw invalidRequestError(
      `This request's input is ${bytes} bytes, more than the ${limit} bytes a key may keep in stored responses (responses.max_stored_bytes_per_key). Send 'store': false to run it without storing it.`,
      'store',
      'stored_bytes_quota_exceeded',
    );
  }

  /** An upstream `response` object (pass-through) -> what the client sees, stored when `store` is not false. */
  async completeNative(prepared: PreparedNativeResponse, json: unknown): Promise<unknown> {
    const response = presentNativeResponse(json, prepared.request);
    if (response && typeof response === 'object' && typeof (response as ResponseObject).id === 'string') {
      await this.#save(prepared, response as ResponseObject);
    }
    return response;
  }

  /** Upstream Responses events (pass-through) -> SSE text; the final response is stored before its event is sent. */
  nativeSse(prepared: PreparedNativeResponse, events: AsyncIterable<NativeSSEEvent>): AsyncGenerator<string> {
    return passNativeResponseEvents(events, prepared.request, (response) => this.#save(prepared, response));
  }

  async #save(
    prepared: Pick<PreparedResponse, 'request' | 'owner' | 'inputItems'>,
    response: ResponseObject,
  ): Promise<void> {
    if (prepared.request.store === false || typeof response.id !== 'string') return;
    const now = Date.now();
    await this.store.putResponse({
      id: response.id,
      owner: prepared.owner,
      created_at: now,
      expires_at: now + this.retentionMs,
      response,
      input_items: prepared.inputItems,
      previous_response_id: prepared.request.previous_response_id ?? null,
    });
  }

  /** A whole chat completion -> the finished `response` (stored when `store` is not false). */
  async complete(prepared: PreparedResponse, completion: ChatCompletion): Promise<ResponseObject> {
    const response = convertChatCompletion(completion, prepared.response, prepared.names);
    await this.#save(prepared, response);
    return response;
  }

  /**
   * Chat chunks -> Responses events (see `convertChatStream`); the finished response is stored before
   * `response.completed` is sent, so a client may continue from it at once.
   */
  events(prepared: PreparedResponse, chunks: AsyncIterable<ChatCompletionChunk>): AsyncGenerator<ResponsesStreamEvent> {
    return convertChatStream(chunks, prepared.response, (response) => this.#save(prepared, response), prepared.names);
  }

  /** Chat chunks -> SSE text (`event:` + `data:` per event). */
  async *sse(prepared: PreparedResponse, chunks: AsyncIterable<ChatCompletionChunk>): AsyncGenerator<string> {
    for await (const event of this.events(prepared, chunks)) yield encodeResponsesEvent(event);
  }

  /** `GET /v1/responses/{id}`; throws 404 when it is unknown, expired or another key's. */
  async retrieve(id: string, owner: string): Promise<ResponseObject> {
    const record = await this.store.getResponse(id, owner);
    if (!record) throw notFound(id);
    return record.response;
  }

  /** `DELETE /v1/responses/{id}`; throws 404 like {@link retrieve}. */
  async delete(id: string, owner: string): Promise<DeletedResponse> {
    if (!(await this.store.deleteResponse(id, owner))) throw notFound(id);
    return { id, object: 'response', deleted: true };
  }

  /** `GET /v1/responses/{id}/input_items`; throws 404 like {@link retrieve}, 400 for a bad query. */
  async inputItems(id: string, owner: string, query: InputItemsQuery): Promise<ResponseItemList> {
    const record = await this.store.getResponse(id, owner);
    if (!record) throw notFound(id);
    return listInputItems(record.input_items, query);
  }

  /**
   * The SSE text that ends a stream whose call failed after its headers went out, before any Responses event: an
   * `error` event and a `response.failed` carrying the request's response object with the error (see
   * `encodeResponseErrorEvent`). For a pass-through request (no translated response object yet) one is made from it.
   */
  failureSse(error: unknown, prepared: PreparedResponse | PreparedNativeResponse): string {
    const response =
      'response' in prepared
        ? prepared.response
        : newResponseObject(
            newId('resp'),
            prepared.request,
            Math.floor(Date.now() / 1000),
            prepared.request.store !== false,
          );
    return encodeResponseErrorEvent(error, 0, response);
  }

  /** Renames chat parameter names in a 4xx error (e.g. `response_format` -> `text.format`) to the ones the client sent. */
  translateError(error: unknown): unknown {
    if (!GatewayError.isInstance(error) || !error.param) return error;
    const param = error.param;
    const prefix = Object.keys(CHAT_TO_RESPONSES_PARAM)
      .filter((name) => param === name || param.startsWith(`${name}.`) || param.startsWith(`${name}[`))
      .sort((a, b) => b.length - a.length)[0];
    if (!prefix) return error;
    const renamed = CHAT_TO_RESPONSES_PARAM[prefix]!;
    return new GatewayError({
      status: error.status,
      type: error.type,
      code: error.code,
      param: renamed + param.slice(prefix.length),
      headers: error.headers,
      message: error.message
        .replaceAll(param, renamed + param.slice(prefix.length))
        .replaceAll(`'${prefix}'`, `'${renamed}'`),
      cause: error.cause,
    });
  }
}
