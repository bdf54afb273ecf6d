import { type MockRoute, type MockUpstream, openaiReplayRoutes, startMockUpstream } from '@switchyard/testkit';
import OpenAI from 'openai';
import { pino } from 'pino';
import { parseConfig } from '../../src/config/load-config.js';
import { type RunningServer, startServer } from '../../src/start-server.js';

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
export async function startTestGateway(options: { routes?: Record<string, MockRoute>; extraYaml?: string } = {}): Promise<TestGateway> {
  const upstream = await startMockUpstream({ routes: { ...openaiReplayRoutes(), ...options.routes } });
  const yaml = `
server: { host: 127.0.0.1, port: 0 }
keys: ["\${TEST_GATEWAY_KEY}"]
providers:
  openai:
    adapter: openai
    api_key: \${TEST_UPSTREAM_KEY}
    base_url: ${upstream.url}/v1
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
${options.extraYaml ?? ''}`;
  const config = parseConfig(yaml, 'test.yaml', { TEST_GATEWAY_KEY: GATEWAY_KEY, TEST_UPSTREAM_KEY: UPSTREAM_KEY });
  const logs: string[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => void logs.push(line) });
  const running = await startServer(config, { logger });
  const client = new OpenAI({ baseURL: running.url, apiKey: GATEWAY_KEY, maxRetries: 0, timeout: 10_000 });
  return {
    upstream,
    running,
    client,
    logs,
    async close() {
      await running.close();
      await upstream.close();
    },
  };
}

/** Starts the real gateway from YAML config text on an ephemeral port, logging nothing. */
export function startGatewayFromYaml(yaml: string, options: { cwd?: string } = {}): Promise<RunningServer> {
  return startServer(parseConfig(yaml, 'test.yaml', {}), { logger: pino({ level: 'silent' }), cwd: options.cwd });
}
