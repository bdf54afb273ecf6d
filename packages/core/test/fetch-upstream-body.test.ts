import { describe, expect, it } from 'vitest';
import { type GatewayError, fetchUpstreamBody } from '../src/index.js';
import { mapError, useDispatchTestUpstream } from './helpers/dispatch-test-upstream.js';

const upstream = useDispatchTestUpstream((req, res) => {
  if (req.url === '/ok') res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
  else if (req.url === '/chunked') {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('{"part":');
    setTimeout(() => res.end('"two"}'), 5);
  } else if (req.url === '/reset') req.socket.destroy();
});

describe('fetchUpstreamBody', () => {
  it('reads a whole answer, across reads, and reports its headers once they are in', async () => {
    let accepted = 0;
    const ok = await fetchUpstreamBody({
      provider: 'p',
      url: `${upstream.url}/ok`,
      body: '{}',
      mapError,
      upstream: { onResponseHeaders: () => accepted++ },
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.headers['content-type']).toBe('application/json');
    expect(ok.bytes.toString()).toBe('{"ok":true}');
    const chunked = await fetchUpstreamBody({
      provider: 'p',
      url: `${upstream.url}/chunked`,
      body: '{}',
      mapError,
      upstream: { onResponseHeaders: () => accepted++ },
    });
    expect(chunked.bytes.toString()).toBe('{"part":"two"}');
    expect(accepted).toBe(2);
  });

  it('throws what mapError makes of an answer of 400 or more, without reporting it accepted', async () => {
    let accepted = 0;
    const error = await fetchUpstreamBody({
      provider: 'p',
      url: `${upstream.url}/error`,
      body: '{}',
      mapError,
      upstream: { onResponseHeaders: () => accepted++ },
    }).catch((e: unknown) => e);
    expect((error as GatewayError).status).toBe(429);
    expect((error as GatewayError).message).toBe('mapped 429: {"error":{"message":"slow down"}} (retry-after 3)');
    expect(accepted).toBe(0);
  });

  it('caps the body: a longer answer is 502 upstream_response_too_large naming the provider and the limit', async () => {
    const error = await fetchUpstreamBody({
      provider: 'small',
      upstream: undefined,
      url: `${upstream.url}/chunked`,
      body: '{}',
      mapError,
      limits: { maxResponseBytes: 10 },
    }).catch((e: unknown) => e);
    expect((error as GatewayError).status).toBe(502);
    expect((error as GatewayError).code).toBe('upstream_response_too_large');
    expect((error as GatewayError).message).toContain('providers.small.limits.max_response_bytes');
  });

  it('maps a reset connection to 502 and a stalled one to 504, and throws the reason of an abort', async () => {
    const reset = await fetchUpstreamBody({
      provider: 'p',
      upstream: undefined,
      url: `${upstream.url}/reset`,
      body: '{}',
      mapError,
    }).catch((e: unknown) => e);
    expect((reset as GatewayError).status).toBe(502);
    const stalled = await fetchUpstreamBody({
      provider: 'p',
      upstream: undefined,
      url: `${upstream.url}/hang`,
      body: '{}',
      mapError,
      timeouts: { headersMs: 50 },
    }).catch((e: unknown) => e);
    expect((stalled as GatewayError).status).toBe(504);
    const controller = new AbortController();
    const reason = new Error('client gone');
    const pending = fetchUpstreamBody({
      provider: 'p',
      upstream: undefined,
      url: `${upstream.url}/hang`,
      body: '{}',
      mapError,
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(reason), 20);
    await expect(pending).rejects.toBe(reason);
    const early = new AbortController();
    early.abort(reason);
    await expect(
      fetchUpstreamBody({
        provider: 'p',
        upstream: undefined,
        url: `${upstream.url}/ok`,
        mapError,
        signal: early.signal,
      }),
    ).rejects.toBe(reason);
  });
});
