import type { AdapterCallContext, ChatCompletionChunk, ProviderAdapter } from '@switchyard/core';
import { expect, it } from 'vitest';
import type { MockUpstream } from '../mock-upstream/start-mock-upstream.js';
import type { AdapterConformanceOptions } from './adapter-conformance-options.js';
import { collectChunks } from './collect-chunks.js';
import { conformanceChatRequest } from './conformance-request.js';

/** A W3C trace context header as the gateway passes it to adapters when tracing is on. */
export const CONFORMANCE_TRACEPARENT = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';

/** What the context cases need from the suite around them. */
export interface ContextCases {
  upstream(): MockUpstream;
  adapter(): ProviderAdapter;
  model: string;
}

/** A call context carrying trace headers and the gateway's upstream settings, counting response-header signals. */
function tracedContext(): { context: AdapterCallContext; headerSignals: () => number } {
  let signals = 0;
  const context: AdapterCallContext = {
    signal: new AbortController().signal,
    requestId: 'conformance-context',
    provider: 'conformance',
    warn: () => {},
    headers: { traceparent: CONFORMANCE_TRACEPARENT },
    upstream: { onResponseHeaders: () => signals++ },
  };
  return { context, headerSignals: () => signals };
}

/**
 * Cases every chat adapter must pass so that the gateway's per-call settings reach the upstream: the call's trace
 * headers (`context.headers`) are sent, and the upstream helpers are given `context.upstream` (its pool, the provider's
 * body limits and the response-header signal that stops the first-byte timer and opens early stream headers), for a
 * completion and for a stream. An adapter that builds its upstream request without them fails here.
 * @see https://www.w3.org/TR/trace-context/#traceparent-header
 */
export function describeContextCases(cases: ContextCases, chat: NonNullable<AdapterConformanceOptions['chat']>): void {
  const sentTraceparent = (route: string) => {
    const [sent] = cases.upstream().requestsTo(route);
    expect(sent, 'the adapter called the recorded route').toBeDefined();
    return sent!.headers.traceparent;
  };

  it("passes the call's trace headers and upstream settings on a completion", async () => {
    cases.upstream().route(chat.completion.route, chat.completion.reply);
    const { context, headerSignals } = tracedContext();
    await cases.adapter().chatCompletions!(conformanceChatRequest(cases.model), context);
    expect(sentTraceparent(chat.completion.route), 'context.headers reach the upstream').toBe(CONFORMANCE_TRACEPARENT);
    expect(headerSignals(), 'context.upstream is given to the upstream helper (response headers signalled once)').toBe(
      1,
    );
  });

  it("passes the call's trace headers and upstream settings on a stream", async () => {
    cases.upstream().route(chat.stream.route, chat.stream.reply);
    const { context, headerSignals } = tracedContext();
    const request = conformanceChatRequest(cases.model, { stream: true, stream_options: { include_usage: true } });
    const stream = (await cases.adapter().chatCompletions!(request, context)) as AsyncIterable<ChatCompletionChunk>;
    await collectChunks(stream);
    expect(sentTraceparent(chat.stream.route), 'context.headers reach the upstream').toBe(CONFORMANCE_TRACEPARENT);
    expect(headerSignals(), 'context.upstream is given to the upstream helper (response headers signalled once)').toBe(
      1,
    );
  });
}
