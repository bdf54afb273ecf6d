import Anthropic from '@anthropic-ai/sdk';
import { type MockUpstream, type MockUpstreamOptions, startMockUpstream } from '@switchyard/testkit';
import OpenAI from 'openai';
import { type Logger, pino } from 'pino';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { parseConfig } from '../../src/config/load-config.js';
import { type RunningServer, startServer } from '../../src/start-server.js';

// This helper lives in the gateway's tests, not in @switchyard/testkit: it starts the gateway itself, and testkit
// cannot depend on @switchyard/gateway (the gateway's tests depend on testkit, which would make a cycle).

/** Options of {@link startGatewayWithUpstreams}. */
export interface GatewayWithUpstreamsOptions<Name extends string> {
  /**
   * The mock upstreams to start, by a name of the test's choosing (`{ primary: { routes }, backup: {} }`), each on
   * its own ephemeral 127.0.0.1 port. Give `{}` for one that answers 404 to everything until a test sets routes.
   */
  upstreams: Record<Name, MockUpstreamOptions>;
  /**
   * The gateway's YAML config, given each upstream's base URL (`http://127.0.0.1:PORT`, no trailing slash) under the
   * same name. `${VAR}` references are filled from {@link env}, never from the process's environment.
   */
  config: (urls: Record<Name, string>) => string;
  /** Values for `${VAR}` in the config (default none). */
  env?: Record<string, string>;
  /**
   * The key the default {@link GatewayWithUpstreams.openai} and {@link GatewayWithUpstreams.anthropic} clients send.
   * Default: the first entry of the config's `keys:`, else a placeholder the gateway will refuse.
   */
  key?: string;
  /** Per-request timeout of the SDK clients, in ms (default: the SDKs' own, 10 minutes). */
  clientTimeoutMs?: number;
  /** The gateway's logger (default: silent). */
  logger?: Logger;
  /** Where third-party adapter packages are resolved from (default: `process.cwd()`). */
  cwd?: string;
}

/** A running gateway in front of running mock upstreams, with official SDK clients pointed at it. */
export interface GatewayWithUpstreams<Name extends string> {
  /** The gateway (its `url` is the OpenAI base URL, e.g. `http://127.0.0.1:PORT/v1`). */
  running: RunningServer;
  /** `http://127.0.0.1:PORT/v1`. */
  url: string;
  /** `http://127.0.0.1:PORT`, for `/admin`, `/metrics`, `/healthz` and the Anthropic SDK. */
  origin: string;
  /** The mock upstreams by name; each records every request it receives (`requests`, `requestsTo(route)`). */
  upstreams: Record<Name, MockUpstream>;
  /** The official `openai` SDK with the default key, `maxRetries: 0`. */
  openai: OpenAI;
  /** The official `@anthropic-ai/sdk` (base URL {@link origin}: it appends `/v1/messages`) with the default key, `maxRetries: 0`. */
  anthropic: Anthropic;
  /** Another `openai` client (same options) sending `key`. */
  openaiWithKey(key: string): OpenAI;
  /** Another `@anthropic-ai/sdk` client (same options) sending `key` as `x-api-key`. */
  anthropicWithKey(key: string): Anthropic;
  /** Forgets every upstream's recorded requests and route call counts. */
  clearUpstreams(): void;
  /** Closes the gateway, then every upstream. Idempotent: later calls return the first call's promise. */
  close(): Promise<void>;
}

/**
 * Starts the mock upstreams (from @switchyard/testkit), then the real gateway (`startServer`, in this process) from
 * the YAML that `options.config` builds with the upstreams' URLs, on ephemeral ports. If anything fails to start,
 * what did start is closed before the error is rethrown (a ConfigError for a bad config).
 */
export async function startGatewayWithUpstreams<Name extends string>(
  options: GatewayWithUpstreamsOptions<Name>,
): Promise<GatewayWithUpstreams<Name>> {
  const upstreams = {} as Record<Name, MockUpstream>;
  let running: RunningServer | undefined;
  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      await running?.close();
      await Promise.all(Object.values<MockUpstream>(upstreams).map((upstream) => upstream.close()));
    })();
    return closing;
  };
  try {
    for (const [name, upstreamOptions] of Object.entries<MockUpstreamOptions>(options.upstreams)) {
      upstreams[name as Name] = await startMockUpstream(upstreamOptions);
    }
    const urls = Object.fromEntries(
      Object.entries<MockUpstream>(upstreams).map(([name, upstream]) => [name, upstream.url]),
    ) as Record<Name, string>;
    const config = parseConfig(options.config(urls), 'test.yaml', options.env ?? {});
    running = await startServer(config, { logger: options.logger ?? pino({ level: 'silent' }), cwd: options.cwd });
    const url = running.url;
    const origin = url.replace(/\/v1$/, '');
    const key = options.key ?? config.keys[0] ?? 'sk-no-gateway-key-configured';
    const timeout = options.clientTimeoutMs;
    const openaiWithKey = (apiKey: string) =>
      new OpenAI({ baseURL: url, apiKey, maxRetries: 0, ...(timeout ? { timeout } : {}) });
    const anthropicWithKey = (apiKey: string) =>
      new Anthropic({ baseURL: origin, apiKey, maxRetries: 0, ...(timeout ? { timeout } : {}) });
    return {
      running,
      url,
      origin,
      upstreams,
      openai: openaiWithKey(key),
      anthropic: anthropicWithKey(key),
      openaiWithKey,
      anthropicWithKey,
      clearUpstreams: () => {
        for (const upstream of Object.values<MockUpstream>(upstreams)) upstream.clear();
      },
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

/**
 * The usual test-file set-up in one call: registers a `beforeAll` that runs {@link startGatewayWithUpstreams} (with
 * its own `startTimeoutMs`, default 20 s, as it starts servers) and then `ready(gateway)` (to copy what the file's
 * tests use into its variables), an `afterAll` that closes it all, and with `clearBetweenTests` a `beforeEach` that
 * clears the upstreams' recorded requests. Returns an object that is filled in once `beforeAll` has run; do not read
 * it at module level.
 */
export function useGatewayWithUpstreams<Name extends string>(
  options: GatewayWithUpstreamsOptions<Name> & { clearBetweenTests?: boolean; startTimeoutMs?: number },
  ready?: (gateway: GatewayWithUpstreams<Name>) => void,
): GatewayWithUpstreams<Name> {
  const handle = {} as GatewayWithUpstreams<Name>;
  beforeAll(async () => {
    Object.assign(handle, await startGatewayWithUpstreams(options));
    ready?.(handle);
  }, options.startTimeoutMs ?? 20_000);
  if (options.clearBetweenTests) beforeEach(() => handle.clearUpstreams());
  afterAll(() => handle.close?.());
  return handle;
}
