import type { MockRoute } from '@switchyard/testkit';
import { type SpawnedGateway, spawnGateway } from './spawn-gateway.js';

/** What differs between the replica configs of the tests: the rest (one `gpt-4o` model on a mock OpenAI) is shared. */
export interface ReplicaYamlOptions {
  masterKey: string;
  /** The mock upstream's origin (`http://127.0.0.1:PORT`); the `openai` provider calls `<upstreamUrl>/v1`. */
  upstreamUrl: string;
  /** `store.timeout_ms`, ms. */
  storeTimeoutMs: number;
  /** `redis:` (omitted: no Redis); `timeoutMs` is `redis.timeout_ms`, ms; `onError` omitted: the default (`open`). */
  redis?: { url: string; timeoutMs: number; onError?: 'open' | 'closed' };
  /** `gpt-4o`'s price, USD per million tokens. */
  price: { input: number; output: number };
  /** Static gateway keys (`keys:`), if any. */
  keys?: string[];
}

/**
 * The YAML config of one replica: port 0 on 127.0.0.1, the store on Postgres at `${DATABASE_URL}` (so that
 * `spawnReplicas` points every replica at one database), JSON logs at `warn`, no retries.
 */
export function replicaYaml(options: ReplicaYamlOptions): string {
  const { redis, price } = options;
  const onError = redis?.onError ? `, on_error: ${redis.onError}` : '';
  return [
    'server: { host: 127.0.0.1, port: 0 }',
    ...(options.keys ? [`keys: ${JSON.stringify(options.keys)}`] : []),
    `admin: { master_key: "${options.masterKey}" }`,
    `store: { postgres: "\${DATABASE_URL}", timeout_ms: ${options.storeTimeoutMs} }`,
    ...(redis ? [`redis: { url: "${redis.url}"${onError}, timeout_ms: ${redis.timeoutMs} }`] : []),
    'log: { level: warn, format: json }',
    'providers:',
    `  openai: { adapter: openai, api_key: sk-upstream-000000, base_url: "${options.upstreamUrl}/v1" }`,
    'models:',
    `  - { id: gpt-4o, provider: openai, price: { input: ${price.input}, output: ${price.output} } }`,
    'routing: { max_retries: 0 }',
    '',
  ].join('\n');
}

/**
 * Starts one `switchyard start` process (the built CLI) per config in `yamls`, all at once and all on the Postgres
 * database `databaseUrl` (given as `DATABASE_URL`); resolves when every one listens (each within `startTimeoutMs`,
 * default 20 s), in the order of `yamls`. The caller stops them.
 */
export function spawnReplicas<const Yamls extends readonly string[]>(
  databaseUrl: string,
  yamls: Yamls,
  startTimeoutMs?: number,
): Promise<{ -readonly [K in keyof Yamls]: SpawnedGateway }> {
  const spawned = yamls.map((yaml) => spawnGateway(yaml, [], { DATABASE_URL: databaseUrl }, startTimeoutMs));
  return Promise.all(spawned) as Promise<{ -readonly [K in keyof Yamls]: SpawnedGateway }>;
}

/**
 * The admin API of a replica with the master key: `admin(gateway, method, path, body?)` sends `<origin>/admin<path>`
 * (JSON when there is a body) and resolves with the answer's JSON, whatever its status.
 */
export function masterKeyAdmin(masterKey: string) {
  return async (
    gateway: { origin: string },
    method: string,
    path: string,
    body?: unknown,
  ): Promise<Record<string, unknown>> => {
    const res = await fetch(`${gateway.origin}/admin${path}`, {
      method,
      headers: { authorization: `Bearer ${masterKey}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    return (await res.json()) as Record<string, unknown>;
  };
}

/** What an OpenAI SDK call came to: 200 when it resolved, else the `APIError`'s `status` (or `code` with `'code'`). */
export function outcomeOf(call: Promise<unknown>, field: 'status' | 'code' = 'status'): Promise<unknown> {
  return call.then(
    () => 200,
    (error: { status?: number; code?: string | null }) => error[field],
  );
}

/** A gate that can be closed again: `wait()` resolves once `open()` is called; `close()` makes later waits wait. */
export interface ReusableGate {
  wait(): Promise<void>;
  open(): void;
  close(): void;
}

/** A {@link ReusableGate}, closed. */
export function reusableGate(): ReusableGate {
  let open!: () => void;
  let opened!: Promise<void>;
  const close = () => {
    opened = new Promise<void>((resolve) => (open = resolve));
  };
  close();
  return { wait: () => opened, open: () => open(), close };
}

/**
 * A mock `POST /v1/chat/completions` route answering `answer` after `delayMs` (ms); a call whose first message is
 * `hold` first waits for `gate`, so that a test can keep calls in flight.
 */
export function heldChatRoute(answer: unknown, delayMs: number, gate: ReusableGate): MockRoute {
  return async (request) => {
    if ((request.json as { messages: { content: string }[] }).messages[0]?.content === 'hold') await gate.wait();
    return { json: answer, delayMs };
  };
}
