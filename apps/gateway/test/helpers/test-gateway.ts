import { type MockRoute, type MockUpstream, openaiReplayRoutes } from '@switchyard/testkit';
import type OpenAI from 'openai';
import { pino } from 'pino';
import { parseConfig } from '../../src/config/load-config.js';
import { type RunningServer, startServer } from '../../src/start-server.js';
import { startGatewayWithUpstreams } from './gateway-with-upstreams.js';

export const GATEWAY_KEY = 'sk-switchyard-test-key-0123456789';
export const UPSTREAM_KEY = 'sk-upstream-secret-abcdef123456';

export interface TestGateway {
  upstream: MockUpstream;
  running: RunningServer;
  client: OpenAI;
  /** Lines the gateway logged (JSON strings). */
  logs: string[];
  close(): Promise<void>;
}

/**
 * Starts the mock OpenAI upstream (recorded replies) and the real gateway in front of it on ephemeral ports, with
 * an official `openai` SDK client pointed at the gateway.
 */
export async function startTestGateway(
  options: { routes?: Record<string, MockRoute>; extraYaml?: string } = {},
): Promise<TestGateway> {
  const logs: string[] = [];
  const gateway = await startGatewayWithUpstreams({
    upstreams: { openai: { routes: { ...openaiReplayRoutes(), ...options.routes } } },
    config: (url) => `
server: { host: 127.0.0.1, port: 0 }
keys: ["\${TEST_GATEWAY_KEY}"]
providers:
  openai:
    adapter: openai
    api_key: \${TEST_UPSTREAM_KEY}
    base_url: ${url.openai}/v1
  dead:
    adapter: openai
    api_key: sk-dead-upstream-0000
    base_url: http://127.0.0.1:1/v1
models:
  - id: gpt-4o-mini
    provider: openai
    upstream: gpt-4.1-nano
    price: { input: 0.15, output: 0.6 }
  - id: text-embedding-3-small
    provider: openai
  - id: whisper-1
    provider: openai
  - id: tts-1
    provider: openai
  - id: dall-e-3
    provider: openai
${options.extraYaml ?? ''}`,
    env: { TEST_GATEWAY_KEY: GATEWAY_KEY, TEST_UPSTREAM_KEY: UPSTREAM_KEY },
    logger: pino({ level: 'info' }, { write: (line: string) => void logs.push(line) }),
    clientTimeoutMs: 10_000,
  });
  return {
    upstream: gateway.upstreams.openai,
    running: gateway.running,
    client: gateway.openai,
    logs,
    close: gateway.close,
  };
}

/** Starts the real gateway from YAML config text on an ephemeral port, logging nothing. */
export function startGatewayFromYaml(yaml: string, options: { cwd?: string } = {}): Promise<RunningServer> {
  return startServer(parseConfig(yaml, 'test.yaml', {}), { logger: pino({ level: 'silent' }), cwd: options.cwd });
}

/**
 * POSTs `body`, JSON text sent exactly as given (malformed, deep or huge bodies included), to the gateway's
 * `/v1<path>` (default `/chat/completions`) with the test key; resolves with the answer whatever its status.
 */
export function postJsonText(gw: TestGateway, body: string, path = '/chat/completions'): Promise<Response> {
  return fetch(`${gw.running.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${GATEWAY_KEY}`, 'content-type': 'application/json' },
    body,
  });
}
