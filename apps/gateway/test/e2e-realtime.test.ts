import {
  type MockRealtimeUpstream,
  PCM16_24KHZ_BYTES_PER_SECOND,
  type TlsTerminator,
  startMockRealtimeUpstream,
} from '@switchyard/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../src/start-server.js';
import { createAdminKey } from './helpers/admin-keys.js';
import {
  endSession,
  nthResponseDone,
  openSdkSession,
  rawUpgrade,
  type ServerEvent,
  userTextItem,
  weatherToolRoundTrip,
} from './helpers/realtime-clients.js';
import { type RealtimeGateway, startRealtimeGateway } from './helpers/realtime-gateway.js';

const STATIC = 'sk-static-realtime-key-0123456789';
const MASTER = 'sk-master-realtime-key-0123456789';
const UPSTREAM_KEY = 'sk-upstream-realtime-secret-abcdef';
const AZURE_KEY = 'azure-realtime-resource-key-0123456789';
const PRICE = { input: 4, cached_input: 0.4, output: 16, audio_input: 32, audio_output: 64 };
const MAX_MESSAGE_BYTES = 256 * 1024;

let upstream: MockRealtimeUpstream;
let gateway: RealtimeGateway;
let running: RunningServer;
let tls: TlsTerminator;
let origin: string;
let wsOrigin: string;

beforeAll(async () => {
  upstream = await startMockRealtimeUpstream();
  gateway = await startRealtimeGateway(`
keys: ["${STATIC}"]
admin: { master_key: "${MASTER}" }
store: { sqlite: ":memory:" }
server: { port: 0 }
realtime: { check_interval_ms: 50, max_message_bytes: ${MAX_MESSAGE_BYTES} }
providers:
  openai: { adapter: openai, api_key: ${UPSTREAM_KEY}, base_url: "${upstream.baseURL}" }
  azure: { adapter: azure, api_key: ${AZURE_KEY}, base_url: "http://127.0.0.1:${upstream.port}" }
  groq: { adapter: groq, api_key: sk-groq-000000000000, base_url: "${upstream.baseURL}" }
models:
  - { id: voice, provider: openai, upstream: gpt-realtime, price: ${JSON.stringify(PRICE)} }
  - { id: catalogued, provider: openai, upstream: gpt-realtime-mini }
  - { id: azure-voice, provider: azure, upstream: my-realtime-deployment }
  - { id: chat-only, provider: groq, upstream: llama-3.3-70b-versatile }
`);
  ({ running, tls, origin, wsOrigin } = gateway);
});

afterAll(async () => {
  await gateway?.close();
  await upstream?.close();
});

/** The usage fields the mock always sends (tokens). */
type Usage = {
  input_tokens: number;
  output_tokens: number;
  input_token_details: { cached_tokens: number; audio_tokens: number };
  output_token_details: { audio_tokens: number };
};
/** A `response.done` as received. */
type Done = { response: { id: string; usage: Usage } };

/** The cost of one response's usage at {@link PRICE}, USD. */
function costOf(usage: Usage): number {
  const cached = usage.input_token_details.cached_tokens;
  const audioIn = usage.input_token_details.audio_tokens;
  const textIn = usage.input_tokens - audioIn - cached;
  const audioOut = usage.output_token_details.audio_tokens;
  const textOut = usage.output_tokens - audioOut;
  return (
    (textIn * PRICE.input +
      cached * PRICE.cached_input +
      audioIn * PRICE.audio_input +
      textOut * PRICE.output +
      audioOut * PRICE.audio_output) /
    1e6
  );
}

async function ledger(sessionFilter: (row: Record<string, unknown>) => boolean) {
  const rows = (await running.accounts!.requests({ limit: 1000 })) as unknown as Record<string, unknown>[];
  return rows.filter((row) => row.operation === 'realtime' && sessionFilter(row));
}

const textOf = (events: ServerEvent[], type: string) =>
  events
    .filter((e) => e.type === type)
    .map((e) => e.delta)
    .join('');

describe('/v1/realtime with the official openai SDK (OpenAIRealtimeWS)', () => {
  it('runs a text session: model renamed both ways, upstream key swapped in, one ledger row per response', async () => {
    const session = openSdkSession(tls, STATIC, 'voice');
    const created = await session.next('session.created');
    expect((created.session as { model: string }).model).toBe('voice');
    const connection = upstream.connections.at(-1)!;
    expect(connection.url).toBe('/v1/realtime?model=gpt-realtime');
    expect(connection.headers.authorization).toBe(`Bearer ${UPSTREAM_KEY}`);
    expect(JSON.stringify(connection.headers)).not.toContain(STATIC);

    session.send({
      type: 'session.update',
      session: { type: 'realtime', model: 'voice', output_modalities: ['text'] },
    });
    const updated = await session.next('session.updated');
    expect((updated.session as { model: string }).model).toBe('voice');
    expect((connection.received[0]!.session as { model: string }).model).toBe('gpt-realtime');

    for (const [n, question] of ['Hello there', 'And again'].entries()) {
      session.send(userTextItem(question));
      session.send({ type: 'response.create' });
      await nthResponseDone(session, n);
    }
    expect(textOf(session.events, 'response.output_text.delta')).toBe('Echo: Hello thereEcho: And again');
    const dones = session.events.filter((e) => e.type === 'response.done') as unknown as Done[];
    await endSession(session);

    await expect
      .poll(() => ledger((row) => dones.some((d) => d.response.id === row.request_id)).then((rows) => rows.length))
      .toBe(2);
    const rows = await ledger((row) => dones.some((d) => d.response.id === row.request_id));
    const sessions = new Set(rows.map((row) => row.session_id));
    expect(sessions.size).toBe(1);
    expect([...sessions][0]).toMatch(/^sess_sy_/);
    for (const done of dones) {
      const row = rows.find((r) => r.request_id === done.response.id)!;
      expect(row).toMatchObject({
        model: 'voice',
        provider: 'openai',
        upstream_model: 'gpt-realtime',
        status: 200,
        key_id: 'static',
        price_source: 'config',
        usage_estimated: false,
      });
      expect(row.prompt_tokens).toBe(done.response.usage.input_tokens);
      expect(row.completion_tokens).toBe(done.response.usage.output_tokens);
      expect(row.cost_usd).toBeCloseTo(costOf(done.response.usage), 12);
    }
    // The second response read the first turn from the cache: its cached tokens were priced apart.
    expect(dones[1]!.response.usage.input_token_details.cached_tokens).toBeGreaterThan(0);
  });

  it('appends and commits audio, and relays a response of audio deltas priced at the audio prices', async () => {
    const session = openSdkSession(tls, STATIC, 'voice');
    await session.next('session.created');
    const pcm = Buffer.alloc(PCM16_24KHZ_BYTES_PER_SECOND / 10, 1); // 100 ms of PCM16 at 24 kHz
    session.send({ type: 'input_audio_buffer.append', audio: pcm.toString('base64') });
    session.send({ type: 'input_audio_buffer.append', audio: pcm.toString('base64') });
    session.send({ type: 'input_audio_buffer.commit' });
    await session.next('input_audio_buffer.committed');
    session.send({ type: 'response.create' });
    const done = (await session.next('response.done')) as unknown as Done;
    const audio = session.events
      .filter((e) => e.type === 'response.output_audio.delta')
      .map((e) => Buffer.from(String(e.delta), 'base64'));
    expect(audio).toHaveLength(5);
    expect(audio.reduce((n, chunk) => n + chunk.length, 0)).toBe(PCM16_24KHZ_BYTES_PER_SECOND / 2);
    expect(textOf(session.events, 'response.output_audio_transcript.delta')).toBe('I heard 0.2 s of audio');
    const usage = done.response.usage;
    expect(usage.input_token_details.audio_tokens).toBe(2);
    expect(usage.output_token_details.audio_tokens).toBe(5);
    session.rt.close();
    await expect.poll(() => ledger((row) => row.request_id === done.response.id).then((rows) => rows.length)).toBe(1);
    const [row] = await ledger((row) => row.request_id === done.response.id);
    expect(row!.cost_usd).toBeCloseTo(costOf(usage), 12);
    expect(row!.cost_usd).toBeGreaterThan(
      (usage.input_tokens * PRICE.input + usage.output_tokens * PRICE.output) / 1e6,
    );
  });

  it('prices audio with the catalogue audio prices when the model has no price in config', async () => {
    const session = openSdkSession(tls, STATIC, 'catalogued');
    await session.next('session.created');
    session.send({
      type: 'input_audio_buffer.append',
      audio: Buffer.alloc(PCM16_24KHZ_BYTES_PER_SECOND).toString('base64'),
    });
    session.send({ type: 'input_audio_buffer.commit' });
    session.send({ type: 'response.create' });
    const done = (await session.next('response.done')) as unknown as Done;
    session.rt.close();
    await expect.poll(() => ledger((row) => row.request_id === done.response.id).then((rows) => rows.length)).toBe(1);
    const [row] = await ledger((row) => row.request_id === done.response.id);
    // gpt-realtime-mini in the bundled catalogue: text 0.6 / 2.4, audio 10 / 20 USD per million tokens.
    const usage = done.response.usage;
    const expected =
      ((usage.input_tokens - usage.input_token_details.audio_tokens) * 0.6 +
        usage.input_token_details.audio_tokens * 10 +
        (usage.output_tokens - usage.output_token_details.audio_tokens) * 2.4 +
        usage.output_token_details.audio_tokens * 20) /
      1e6;
    expect(row).toMatchObject({ price_source: 'catalog' });
    expect(row!.cost_usd).toBeCloseTo(expected, 12);
  });

  it('makes a function call round trip', async () => {
    const session = openSdkSession(tls, STATIC, 'voice');
    await session.next('session.created');
    const tool = {
      type: 'function',
      name: 'get_weather',
      description: 'Weather of a city',
      parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    };
    const call = await weatherToolRoundTrip(session, tool);
    expect(call).toMatchObject({ name: 'get_weather', arguments: '{"city":"Paris"}' });
    expect(textOf(session.events, 'response.output_text.delta')).toBe('The tool said: {"temperature_c":21}');
    await endSession(session);
  });

  it('serves Azure OpenAI realtime at /openai/realtime with api-version, deployment and api-key', async () => {
    const session = openSdkSession(tls, STATIC, 'azure-voice');
    const created = await session.next('session.created');
    expect((created.session as { model: string }).model).toBe('azure-voice');
    const connection = upstream.connections.at(-1)!;
    expect(connection.url).toBe('/openai/realtime?api-version=2025-04-01-preview&deployment=my-realtime-deployment');
    expect(connection.headers['api-key']).toBe(AZURE_KEY);
    expect(connection.headers.authorization).toBeUndefined();
    await endSession(session);
  });
});

describe('/v1/realtime authentication and admission', () => {
  it('accepts the key in the openai-insecure-api-key subprotocol, answers `realtime`, never sends the key upstream', async () => {
    const opened = await rawUpgrade(`${wsOrigin}/v1/realtime?model=voice`, {
      protocols: ['realtime', `openai-insecure-api-key.${STATIC}`],
    });
    if (!('socket' in opened)) throw new Error(`refused: ${JSON.stringify(opened.refused)}`);
    expect(opened.socket.protocol).toBe('realtime');
    const events = opened.received;
    await events.next('session.created');
    expect(JSON.stringify(upstream.connections.at(-1)!.headers)).not.toContain(STATIC);
    opened.socket.close();
    await events.closed;
  });

  it('refuses with HTTP errors in OpenAI shape: no key 401, unknown model 404, no realtime 400, no model 400', async () => {
    const cases: [string, Record<string, string>, number, string][] = [
      ['/v1/realtime?model=voice', {}, 401, 'invalid_api_key'],
      ['/v1/realtime?model=voice', { authorization: 'Bearer sk-not-a-key-000000000' }, 401, 'invalid_api_key'],
      ['/v1/realtime?model=nope', { authorization: `Bearer ${STATIC}` }, 404, 'model_not_found'],
      ['/v1/realtime?model=chat-only', { authorization: `Bearer ${STATIC}` }, 400, 'unsupported_operation'],
      ['/v1/realtime', { authorization: `Bearer ${STATIC}` }, 400, 'missing_required_parameter'],
      ['/v1/elsewhere', { authorization: `Bearer ${STATIC}` }, 404, 'not_found'],
    ];
    for (const [path, headers, status, code] of cases) {
      const answer = await rawUpgrade(`${wsOrigin}${path}`, { headers });
      if (!('refused' in answer)) throw new Error(`${path} was not refused`);
      expect(answer.refused.status, path).toBe(status);
      expect(answer.refused.body.error.code, path).toBe(code);
    }
  });

  it('holds a concurrency slot for the session and checks the allow-list', async () => {
    const key = await createAdminKey(origin, MASTER, {
      name: 'one-at-a-time',
      concurrency_limit: 1,
      models: ['voice'],
    });
    const first = openSdkSession(tls, key.key, 'voice');
    await first.next('session.created');
    const second = await rawUpgrade(`${wsOrigin}/v1/realtime?model=voice`, {
      headers: { authorization: `Bearer ${key.key}` },
    });
    expect('refused' in second && second.refused.status).toBe(429);
    expect('refused' in second && second.refused.body.error.code).toBe('concurrency_limit_exceeded');
    const other = await rawUpgrade(`${wsOrigin}/v1/realtime?model=azure-voice`, {
      headers: { authorization: `Bearer ${key.key}` },
    });
    expect('refused' in other && other.refused.status).toBe(403);
    await endSession(first);
    await expect
      .poll(async () => {
        const again = await rawUpgrade(`${wsOrigin}/v1/realtime?model=voice`, {
          headers: { authorization: `Bearer ${key.key}` },
        });
        if ('socket' in again) again.socket.close();
        return 'socket' in again;
      })
      .toBe(true);
  });

  it('refuses a client message over the size limit with an error event and keeps the session', async () => {
    const session = openSdkSession(tls, STATIC, 'voice');
    await session.next('session.created');
    session.send({ type: 'input_audio_buffer.append', audio: Buffer.alloc(MAX_MESSAGE_BYTES).toString('base64') });
    const error = await session.next('error');
    expect(error.error).toMatchObject({ type: 'invalid_request_error', code: 'message_too_large' });
    session.send({ type: 'session.update', session: { type: 'realtime', output_modalities: ['text'] } });
    await session.next('session.updated');
    session.rt.close();
    expect((await session.closed).code).toBe(1000);
  });

  it('counts sessions in switchyard_realtime_sessions and their durations', async () => {
    const session = openSdkSession(tls, STATIC, 'voice');
    await session.next('session.created');
    const during = await (await fetch(`${origin}/metrics`)).text();
    expect(during).toMatch(/^switchyard_realtime_sessions [1-9]/m);
    await endSession(session);
    await expect
      .poll(async () => /^switchyard_realtime_sessions 0$/m.test(await (await fetch(`${origin}/metrics`)).text()))
      .toBe(true);
    expect(await (await fetch(`${origin}/metrics`)).text()).toMatch(
      /switchyard_realtime_session_duration_seconds_count\{provider="openai",reason="client_closed"\} [1-9]/,
    );
  });
});

describe('/v1/realtime sessions ended by the gateway', () => {
  it('ends the session when the budget is spent mid-session, and refuses the next with 429', async () => {
    const key = await createAdminKey(origin, MASTER, { name: 'tiny-budget', budget_usd: 0.000001 });
    const session = openSdkSession(tls, key.key, 'voice');
    await session.next('session.created');
    session.send(userTextItem('Spend it all, please'));
    session.send({ type: 'response.create', response: { output_modalities: ['text'] } });
    await session.next('response.done');
    const error = await session.next('error');
    expect(error.error).toMatchObject({ type: 'insufficient_quota', code: 'insufficient_quota' });
    expect(await session.closed).toMatchObject({ code: 1008 });
    const next = await rawUpgrade(`${wsOrigin}/v1/realtime?model=voice`, {
      headers: { authorization: `Bearer ${key.key}` },
    });
    expect('refused' in next && next.refused.status).toBe(429);
    expect('refused' in next && next.refused.body.error.code).toBe('insufficient_quota');
  });

  it('ends the session when its key is revoked mid-session', async () => {
    const key = await createAdminKey(origin, MASTER, { name: 'soon-revoked' });
    const session = openSdkSession(tls, key.key, 'voice');
    await session.next('session.created');
    const revoked = await fetch(`${origin}/admin/keys/${key.id}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${MASTER}` },
    });
    expect(revoked.status).toBe(200);
    const error = await session.next('error');
    expect(error.error).toMatchObject({ code: 'invalid_api_key' });
    expect(await session.closed).toMatchObject({ code: 1008 });
  });

  it('ends the session with upstream_disconnected and code 1014 when the upstream drops', async () => {
    const session = openSdkSession(tls, STATIC, 'voice');
    await session.next('session.created');
    upstream.connections.at(-1)!.drop();
    const error = await session.next('error');
    expect(error.error).toMatchObject({ type: 'server_error', code: 'upstream_disconnected' });
    expect(await session.closed).toMatchObject({ code: 1014 });
  });
});
