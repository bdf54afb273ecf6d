import { describe, expect, it } from 'vitest';
import { useMockUpstream } from '../src/vitest/index.js';

const upstream = useMockUpstream({ routes: { 'GET /hello': { json: { hello: 'world' } } }, clearBetweenTests: true });

describe('useMockUpstream', () => {
  it('starts the upstream before the tests and forwards to it (routes, requests)', async () => {
    expect(upstream.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(await (await fetch(`${upstream.url}/hello`)).json()).toEqual({ hello: 'world' });
    upstream.route('GET /other', { json: { other: true } });
    expect(await (await fetch(`${upstream.url}/other`)).json()).toEqual({ other: true });
    expect(upstream.requests.map((r) => r.path)).toEqual(['/hello', '/other']);
  });

  it('clears the recorded requests between tests with clearBetweenTests', () => {
    expect(upstream.requests).toEqual([]);
  });
});
