import type { MockReply, MockRoute } from '@switchyard/testkit';
import fc from 'fast-check';
import { expect } from 'vitest';
import { useGatewayWithUpstreams } from './gateway-with-upstreams.js';

// Generators of malformed upstream answers for the property tests of issue #38 item 7 (every upstream body through a
// schema), and the assertions of what a client must see: 502 `upstream_invalid_response` naming the provider, or, in a
// stream that has begun, an error event with that code; never a 500, a crash, or a success.

/** A path into a JSON value: object keys and array indexes, e.g. `['choices', 0, 'message']`. */
export type JsonPath = readonly (string | number)[];

type Kind = 'string' | 'number' | 'boolean' | 'array' | 'object' | 'null';

const kindOf = (value: unknown): Kind =>
  value === null ? 'null' : Array.isArray(value) ? 'array' : (typeof value as Kind);

/** JSON values of every kind (depth at most 2), by kind. */
const valuesByKind: Record<Exclude<Kind, 'null'>, fc.Arbitrary<unknown>> = {
  string: fc.string({ maxLength: 12 }),
  number: fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true })),
  boolean: fc.boolean(),
  array: fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 3 }),
  object: fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 }),
};

/**
 * JSON values of another kind than `value`'s (never null: many fields may be null). A string field gets numbers,
 * booleans, arrays or objects, an object field strings, numbers, arrays..., so that a schema of that field must refuse
 * every one of them.
 */
export function wrongKindOf(value: unknown): fc.Arbitrary<unknown> {
  const kind = kindOf(value);
  return fc.oneof(
    ...Object.entries(valuesByKind)
      .filter(([k]) => k !== kind)
      .map(([, arbitrary]) => arbitrary),
  );
}

/** Token counts no upstream may report: negative, fractional, beyond 2^53, or a numeric string. */
export const badTokenCount: fc.Arbitrary<unknown> = fc.oneof(
  fc.integer({ min: -1_000_000_000, max: -1 }),
  fc.double({ min: 0.01, max: 1e6, noNaN: true }).filter((x) => !Number.isInteger(x)),
  fc.constant(2 ** 60),
  fc.nat().map(String),
);

/** A deep copy of `value` with `path` set to `replacement` (the path must exist in `value`). */
export function setAt(value: unknown, path: JsonPath, replacement: unknown): unknown {
  const copy = structuredClone(value) as Record<string | number, unknown>;
  let at = copy;
  for (const key of path.slice(0, -1)) at = at[key] as Record<string | number, unknown>;
  at[path.at(-1)!] = replacement;
  return copy;
}

/** The value at `path` in `value` (undefined when absent). */
export function valueAt(value: unknown, path: JsonPath): unknown {
  let at = value as Record<string | number, unknown> | undefined;
  for (const key of path) at = at?.[key] as Record<string | number, unknown> | undefined;
  return at;
}

/** What {@link malformedVariants} generates: the body and where it was broken (for the failure report). */
export interface MalformedBody {
  body: unknown;
  at: string;
}

/**
 * Malformed variants of a valid answer `valid`: one of `paths` (fields the adapter reads, each of a fixed JSON kind)
 * given a value of another kind, or one of `counts` (token counts) given a count no upstream may report. Every variant
 * must be refused.
 */
export function malformedVariants(
  valid: unknown,
  paths: readonly JsonPath[],
  counts: readonly JsonPath[] = [],
): fc.Arbitrary<MalformedBody> {
  for (const path of [...paths, ...counts]) {
    if (valueAt(valid, path) === undefined) throw new Error(`the sample has no ${path.join('.')}`);
  }
  const variants: fc.Arbitrary<MalformedBody>[] = [];
  if (paths.length > 0)
    variants.push(
      fc.constantFrom(...paths).chain((path) =>
        wrongKindOf(valueAt(valid, path)).map((v) => ({
          body: setAt(valid, path, v),
          at: `${path.join('.')} = ${JSON.stringify(v)}`,
        })),
      ),
    );
  if (counts.length > 0)
    variants.push(
      fc
        .constantFrom(...counts)
        .chain((path) =>
          badTokenCount.map((v) => ({ body: setAt(valid, path, v), at: `${path.join('.')} = ${JSON.stringify(v)}` })),
        ),
    );
  return fc.oneof(...variants);
}

/** Bodies that are not a JSON object at all: text that is not JSON, or a JSON string, number, boolean, null or array. */
export const notAnObjectText: fc.Arbitrary<string> = fc.oneof(
  fc.string({ minLength: 1, maxLength: 20 }).filter((text) => {
    try {
      JSON.parse(text);
      return false;
    } catch {
      return true;
    }
  }),
  fc
    .oneof(
      fc.string({ maxLength: 8 }),
      fc.integer(),
      fc.boolean(),
      fc.constant(null),
      fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 3 }),
    )
    .map((v) => JSON.stringify(v)),
);

/** A JSON reply for the mock upstream (`body` sent as its JSON text, or as it is when already text). */
export function jsonReply(body: unknown): MockReply {
  return {
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  };
}

/** How many runs each property makes (fast-check's default is 100; each run is one call through the gateway). */
export const PROPERTY_RUNS = 60;

/** The gateway's answer to one call: status, content type and body text. */
export interface GatewayAnswer {
  status: number;
  contentType: string;
  text: string;
}

/** POSTs JSON to the gateway (`url` under its origin) with `key`, and reads the whole answer. */
export async function postJson(
  url: string,
  key: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<GatewayAnswer> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return {
    status: response.status,
    contentType: response.headers.get('content-type') ?? '',
    text: await response.text(),
  };
}

/** Asserts a 502 `upstream_invalid_response` naming `provider` (OpenAI's error shape, or Anthropic's with `anthropic`). */
export function expectInvalidResponse(
  answer: GatewayAnswer,
  provider: string,
  shape: 'openai' | 'anthropic' = 'openai',
): void {
  expect(answer.status, answer.text).toBe(502);
  const body = JSON.parse(answer.text) as { type?: string; error: { code?: string; type?: string; message: string } };
  if (shape === 'openai') expect(body.error.code).toBe('upstream_invalid_response');
  else expect(body.type).toBe('error');
  expect(body.error.message).toContain(`'${provider}'`);
  expect(body.error.message).toContain('invalid response');
}

/**
 * Asserts that a stream call failed as a client must see it: a 502 `upstream_invalid_response` naming `provider` when
 * nothing was sent yet, else a 200 event stream whose last event is an error with that code (never `[DONE]` after it).
 */
export function expectStreamFailure(answer: GatewayAnswer, provider: string): void {
  if (answer.status !== 200) {
    expectInvalidResponse(answer, provider);
    return;
  }
  expect(answer.contentType).toContain('text/event-stream');
  const events = answer.text
    .split(/\n\n/)
    .map((frame) =>
      frame
        .split('\n')
        .find((line) => line.startsWith('data: '))
        ?.slice(6),
    )
    .filter((data): data is string => data !== undefined);
  expect(events.at(-1), answer.text).not.toBe('[DONE]');
  const last = JSON.parse(events.at(-1)!) as { error?: { code?: string; message?: string } };
  expect(last.error?.code, answer.text).toBe('upstream_invalid_response');
  expect(last.error?.message).toContain(`'${provider}'`);
}

/** A gateway in front of one mock upstream that answers every request with the reply a test sets last. */
export interface ScriptedGateway {
  /** The gateway's `/v1` base URL. */
  url: string;
  /** The gateway's origin (for `/v1/messages` and `/admin`). */
  origin: string;
  /** Sets the reply the upstream gives to every request from now on. */
  answer(reply: MockReply): void;
}

/**
 * Registers (in `beforeAll`/`afterAll`) a gateway started from `config(upstreamUrl)` in front of one mock upstream
 * answering every method and path with the reply last given to {@link ScriptedGateway.answer} (404 until then), but
 * for `fixedRoutes` (e.g. a token endpoint), matched first.
 */
export function useScriptedUpstream(
  config: (upstreamUrl: string) => string,
  fixedRoutes: Record<string, MockRoute> = {},
): ScriptedGateway {
  let current: MockReply = { status: 404, body: 'no reply set' };
  const scripted = { url: '', origin: '', answer: (reply: MockReply) => void (current = reply) };
  useGatewayWithUpstreams(
    {
      upstreams: { upstream: { routes: { ...fixedRoutes, '*': () => current }, record: false } },
      config: (urls) => config(urls.upstream),
    },
    (gateway) => {
      scripted.url = gateway.url;
      scripted.origin = gateway.origin;
    },
  );
  return scripted;
}
