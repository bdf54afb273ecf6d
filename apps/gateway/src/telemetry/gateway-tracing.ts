import {
  type Attributes,
  type Context,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  type Tracer,
  defaultTextMapGetter,
  defaultTextMapSetter,
  trace,
} from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import {
  type CompletionUsage,
  type Gateway,
  GatewayError,
  type GatewayObserver,
  upstreamAnswerModel,
} from '@switchyard/core';
import type { RequestHandler } from 'express';
import { operationOf } from '../http/operation-of.js';
import { locals, onResponseClose } from '../http/request-locals.js';
import { GEN_AI_OPERATION, GEN_AI_OPERATION_OF_ROUTE, genAiProviderName } from './gen-ai-names.js';

/** Settings of {@link GatewayTracing}. */
export interface TracingSettings {
  /** OTLP/HTTP base URL, e.g. `http://collector:4318` (spans go to `<base>/v1/traces`). */
  endpoint: string;
  /** `service.name` of the resource. */
  serviceName: string;
  /** Put prompts and completions on spans (`gen_ai.input.messages`, `gen_ai.output.messages`). */
  captureContent: boolean;
}

interface RequestTrace {
  span: Span;
  context: Context;
  /** Open client spans by attempt number. */
  attempts: Map<number, Span>;
}

/** Appends `/v1/traces` to an OTLP base URL, as the OTLP exporter specification does for `OTEL_EXPORTER_OTLP_ENDPOINT`. */
export function tracesUrl(endpoint: string): string {
  return `${endpoint.replace(/\/+$/, '')}/v1/traces`;
}

/**
 * OpenTelemetry traces of the gateway, exported over OTLP/HTTP (JSON) in batches: one SERVER span per API request
 * (continuing an incoming W3C `traceparent`) and one CLIENT span per upstream attempt, named and attributed by the
 * GenAI semantic conventions (`gen_ai.operation.name`, `gen_ai.provider.name`, `gen_ai.request.model`,
 * `gen_ai.response.model`, `gen_ai.usage.input_tokens`, `gen_ai.usage.output_tokens`,
 * `gen_ai.response.finish_reasons`) plus `switchyard.attempt` and `switchyard.fallback`. Each attempt's
 * `traceparent` goes upstream (adapters send `context.headers`). Prompts and completions are recorded only with
 * `captureContent`. Spans are tied to requests by request id, so no context manager (AsyncLocalStorage) is needed.
 * Loaded by dynamic import only when an endpoint is configured.
 * @see https://opentelemetry.io/docs/specs/semconv/gen-ai/gen-ai-spans/
 * @see https://www.w3.org/TR/trace-context/
 */
export class GatewayTracing {
  readonly #provider: TracerProvider;
  readonly #tracer: Tracer;
  readonly #propagator = new W3CTraceContextPropagator();
  readonly #requests = new Map<string, RequestTrace>();

  constructor(
    private readonly gateway: Gateway,
    private readonly settings: TracingSettings,
  ) {
    this.#provider = new TracerProvider({
      resource: resourceFromAttributes({ 'service.name': settings.serviceName }),
      spanProcessors: [
        new BatchSpanProcessor({
          exporter: new OTLPTraceExporter({ url: tracesUrl(settings.endpoint) }),
          scheduledDelayMillis: 1000,
        }),
      ],
    });
    this.#tracer = this.#provider.getTracer('switchyard');
  }

  #providerName(provider: string): string {
    return genAiProviderName(this.gateway.router.providers.get(provider)?.adapter);
  }

  /** Router hooks: a CLIENT span per attempt, its `traceparent` sent upstream. */
  readonly observer: GatewayObserver = {
    attemptStarted: (event) => {
      const request = this.#requests.get(event.requestId);
      const operation = GEN_AI_OPERATION[event.operation] ?? event.operation;
      const span = this.#tracer.startSpan(
        `${operation} ${event.upstreamModel}`,
        {
          kind: SpanKind.CLIENT,
          attributes: {
            'gen_ai.operation.name': operation,
            'gen_ai.provider.name': this.#providerName(event.provider),
            'gen_ai.request.model': event.upstreamModel,
            'switchyard.provider': event.provider,
            'switchyard.model': event.model,
            'switchyard.attempt': event.attempt,
            'switchyard.fallback': event.fallback,
          },
        },
        request?.context ?? ROOT_CONTEXT,
      );
      request?.attempts.set(event.attempt, span);
      const headers: Record<string, string> = {};
      this.#propagator.inject(trace.setSpan(request?.context ?? ROOT_CONTEXT, span), headers, defaultTextMapSetter);
      if (!request) span.end();
      return { headers };
    },
    attemptEnded: (event) => {
      const span = this.#requests.get(event.requestId)?.attempts.get(event.attempt);
      if (!span || event.outcome === 'ok') return; // the winning attempt ends with its request (streams included)
      this.#requests.get(event.requestId)?.attempts.delete(event.attempt);
      span.setAttribute('switchyard.outcome', event.outcome);
      failSpan(span, event.error);
      span.end();
    },
  };

  /** Express middleware for `/v1`: the SERVER span of each request, ended (with usage) once the response is over. */
  middleware(): RequestHandler {
    return (req, res, next) => {
      const parent = this.#propagator.extract(ROOT_CONTEXT, req.headers, defaultTextMapGetter);
      const operation = operationOf(req.path);
      const genAiOperation = GEN_AI_OPERATION_OF_ROUTE[operation];
      const attributes: Attributes = {
        'http.request.method': req.method,
        'url.path': req.originalUrl.split('?')[0],
        'switchyard.operation': operation,
      };
      if (genAiOperation) attributes['gen_ai.operation.name'] = genAiOperation;
      const span = this.#tracer.startSpan(
        `${req.method} ${req.baseUrl}${req.path}`,
        { kind: SpanKind.SERVER, attributes },
        parent,
      );
      const requestId = locals(res).requestId;
      const request: RequestTrace = { span, context: trace.setSpan(parent, span), attempts: new Map() };
      this.#requests.set(requestId, request);
      onResponseClose(res, () => {
        if (this.#requests.get(requestId) === request) this.#requests.delete(requestId);
        void this.#finish(request, req.body, res).catch(() => {});
      });
      next();
    };
  }

  async #finish(request: RequestTrace, body: unknown, res: Parameters<RequestHandler>[1]): Promise<void> {
    const { span } = request;
    const { model, result, failure, error } = locals(res);
    const attributes: Attributes = { 'http.response.status_code': res.statusCode };
    if (model) attributes['gen_ai.request.model'] = model;
    let usage: Partial<CompletionUsage> | undefined;
    let response: Attributes = {};
    if (result) {
      attributes['gen_ai.provider.name'] = this.#providerName(result.provider);
      attributes['switchyard.provider'] = result.provider;
      attributes['switchyard.attempt'] = result.attempts;
      attributes['switchyard.fallback'] = result.servedModel !== result.model;
      if (result.finished) {
        const summary = await result.finished.catch(() => undefined);
        usage = summary?.usage;
        response = responseAttributes(undefined, result.upstreamModel, usage, false);
        const reasons = summary?.finishReasons?.filter((r) => typeof r === 'string');
        if (reasons?.length) response['gen_ai.response.finish_reasons'] = reasons;
      } else {
        usage = (result.data as { usage?: Partial<CompletionUsage> } | null)?.usage;
        response = responseAttributes(result.data, result.upstreamModel, usage, this.settings.captureContent);
      }
    }
    span.setAttributes({ ...attributes, ...response });
    if (error ?? (failure && failure.status >= 500)) failSpan(span, error ?? failure);
    else if (failure) span.setAttribute('error.type', failure.code ?? String(failure.status));
    for (const [, attempt] of request.attempts) {
      attempt.setAttributes(response);
      attempt.setAttribute('switchyard.outcome', 'ok');
      if (this.settings.captureContent) attempt.setAttribute('gen_ai.input.messages', inputMessages(body));
      if (error) failSpan(attempt, error);
      attempt.end();
    }
    span.end();
  }

  /** Exports every finished span and stops the exporter. */
  shutdown(): Promise<void> {
    return this.#provider.shutdown();
  }
}

function failSpan(span: Span, error: unknown): void {
  const code = GatewayError.isInstance(error)
    ? (error.code ?? String(error.status))
    : ((error as Error | undefined)?.name ?? 'error');
  span.setAttribute('error.type', code);
  span.setStatus({ code: SpanStatusCode.ERROR, message: GatewayError.isInstance(error) ? error.message : undefined });
}

function responseAttributes(
  data: unknown,
  upstreamModel: string,
  usage: Partial<CompletionUsage> | undefined,
  captureContent: boolean,
): Attributes {
  const answer = data as { model?: unknown; choices?: { finish_reason?: unknown; message?: unknown }[] } | null;
  const attributes: Attributes = { 'gen_ai.response.model': upstreamAnswerModel(answer) ?? upstreamModel };
  if (typeof usage?.prompt_tokens === 'number') attributes['gen_ai.usage.input_tokens'] = usage.prompt_tokens;
  if (typeof usage?.completion_tokens === 'number') attributes['gen_ai.usage.output_tokens'] = usage.completion_tokens;
  if (Array.isArray(answer?.choices)) {
    const reasons = answer.choices.map((c) => c.finish_reason).filter((r): r is string => typeof r === 'string');
    if (reasons.length > 0) attributes['gen_ai.response.finish_reasons'] = reasons;
    if (captureContent) attributes['gen_ai.output.messages'] = JSON.stringify(answer.choices.map((c) => c.message));
  }
  return attributes;
}

function inputMessages(body: unknown): string {
  const request = body as { messages?: unknown; input?: unknown; prompt?: unknown } | null;
  return JSON.stringify(request?.messages ?? request?.input ?? request?.prompt ?? null);
}
