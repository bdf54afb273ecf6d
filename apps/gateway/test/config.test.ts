import { describe, expect, it } from 'vitest';
import { ConfigError } from '../src/config/config-error.js';
import { parseConfig } from '../src/config/load-config.js';
import { createProviders } from '../src/providers/create-providers.js';

const env = { GATEWAY_KEY: 'sk-gateway-key-0123456789', OPENAI_KEY: 'sk-openai' };
const base = `
keys: ["\${GATEWAY_KEY}"]
providers:
  openai: { adapter: openai, api_key: "\${OPENAI_KEY}" }
`;

function configError(text: string, environment: NodeJS.ProcessEnv = env): string {
  try {
    parseConfig(text, 'switchyard.yaml', environment);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('expected a ConfigError');
}

describe('config', () => {
  it('substitutes environment variables and applies defaults', () => {
    const config = parseConfig(
      `${base}models:\n  - { id: fast, provider: openai, upstream: gpt-4o-mini, price: { input: 0.15, output: 0.6 } }\n`,
      'x.yaml',
      env,
    );
    expect(config.keys).toEqual([env.GATEWAY_KEY]);
    expect(config.providers.openai).toEqual({ adapter: 'openai', api_key: 'sk-openai' });
    expect(config.server).toEqual({
      host: '127.0.0.1',
      port: 8787,
      body_limit: '20mb',
      shutdown_timeout_ms: 30_000,
      max_connections: 4096,
      max_connections_per_client: 1024,
      trust_proxy: [],
      backlog: 4096,
      headers_timeout_ms: 20_000,
      request_timeout_ms: 300_000,
      stream_keepalive_ms: 15_000,
      client_write_timeout_ms: 60_000,
    });
    expect(config.metrics).toEqual({ enabled: true, auth: 'none' });
    expect(config.log).toEqual({ level: 'info', format: 'auto' });
    expect(config.telemetry).toEqual({ service_name: 'switchyard', capture_content: false });
    expect(config.models[0]).toEqual({
      id: 'fast',
      provider: 'openai',
      upstream: 'gpt-4o-mini',
      price: { input: 0.15, output: 0.6 },
      strategy: 'weighted',
      fallbacks: [],
    });
    expect(config.routing).toMatchObject({ max_retries: 2, timeouts: { connect_ms: 10_000, total_ms: 600_000 } });
  });

  it('names an unset environment variable and where it is used', () => {
    expect(configError(base, { GATEWAY_KEY: env.GATEWAY_KEY })).toMatch(
      /providers\.openai\.api_key: environment variable OPENAI_KEY is not set/,
    );
  });

  it('names the bad path of a schema error', () => {
    expect(configError(`${base}models:\n  - { id: x, provider: openai, price: { input: -1, output: 1 } }\n`)).toContain(
      'models.0.price.input',
    );
    expect(configError(`${base}server: { port: 99999 }\n`)).toContain('server.port');
    expect(configError(`${base}server: { backlog: 0 }\n`)).toContain('server.backlog');
    expect(configError(`${base}models:\n  - { id: x, provider: nobody }\n`)).toContain(
      "models.0.provider: 'nobody' is not a key of providers",
    );
  });

  it('rejects invalid YAML with the file name', () => {
    expect(configError('keys: [unclosed')).toMatch(/^switchyard\.yaml: not valid YAML/);
  });

  it('reports an adapter package that is not installed, naming provider and package', async () => {
    await expect(createProviders({ x: { adapter: 'switchyard-provider-does-not-exist' } })).rejects.toThrow(
      /providers\.x: package 'switchyard-provider-does-not-exist' is not installed/,
    );
  });

  it("reports settings the adapter's own schema rejects", async () => {
    await expect(createProviders({ openai: { adapter: 'openai', base_url: 42 } })).rejects.toThrow(
      /providers\.openai\.base_url/,
    );
  });
});

describe('routing config', () => {
  it('accepts deployments, strategies and fallbacks, and names a bad fallback', () => {
    const config = parseConfig(
      `${base}models:\n  - id: gpt\n    targets: [{ provider: openai, upstream: gpt-4o, weight: 3 }, { provider: openai, upstream: gpt-4o-2 }]\n    strategy: least-busy\n    fallbacks: [small]\n  - { id: small, provider: openai }\n`,
      'x.yaml',
      env,
    );
    expect(config.models[0]).toMatchObject({
      strategy: 'least-busy',
      targets: [{ weight: 3 }, { weight: 1 }],
      fallbacks: ['small'],
    });
    expect(configError(`${base}models:\n  - { id: a, provider: openai, fallbacks: [nope] }\n`)).toContain(
      "models.0.fallbacks.0: 'nope' is not a model id",
    );
    expect(configError(`${base}models:\n  - { id: a }\n`)).toContain(
      "models.0.provider: give either 'provider' or 'targets'",
    );
    expect(configError(`${base}models:\n  - { id: a, provider: openai, strategy: random }\n`)).toContain(
      'models.0.strategy',
    );
  });
});

describe('aliases and model patterns', () => {
  const models = `models:\n  - { id: cheap, provider: openai, upstream: gpt-4o-mini }\n  - { id: "claude-*", provider: openai }\n`;

  it('accepts aliases naming a model id, a match of a pattern or <provider>/<id>, and fallbacks naming either', () => {
    const config = parseConfig(
      `${base}${models}  - { id: main, provider: openai, fallbacks: [fast, claude-x] }\naliases:\n  fast: cheap\n  claude-opus-5-5: claude-sonnet-4-5\n  raw: openai/gpt-4o\n`,
      'x.yaml',
      env,
    );
    expect(config.aliases).toEqual({ fast: 'cheap', 'claude-opus-5-5': 'claude-sonnet-4-5', raw: 'openai/gpt-4o' });
    expect(parseConfig(base, 'x.yaml', env).aliases).toEqual({});
  });

  it.each([
    [
      'an alias naming nothing',
      `aliases: { fast: nothing }\n`,
      "aliases.fast: 'nothing' is neither a model id, a match of a model pattern nor '<provider>/<model>' of a configured provider.",
    ],
    [
      'an alias naming an unconfigured provider',
      `aliases: { fast: groq/llama }\n`,
      "aliases.fast: 'groq/llama' is neither",
    ],
    [
      'an alias that is also a model id',
      `aliases: { cheap: claude-x }\n`,
      "aliases.cheap: 'cheap' is also a model id; remove one of them.",
    ],
    [
      'an alias naming an alias',
      `aliases: { a: cheap, b: a }\n`,
      "aliases.b: 'a' is an alias; an alias must name a model, not another alias.",
    ],
    ['an alias holding *', `aliases: { "x*": cheap }\n`, "aliases.x*: an alias names one model; '*' is not allowed."],
    [
      'an alias with a space',
      `aliases: { "a b": cheap }\n`,
      'aliases.a b: model ids are printable ASCII characters without spaces',
    ],
  ])('names the path of %s', (_what, yaml, message) => {
    expect(configError(`${base}${models}${yaml}`)).toContain(message);
  });

  it('names a pattern with an upstream id, and a model id given twice', () => {
    expect(configError(`${base}models:\n  - { id: "gpt-*", provider: openai, upstream: gpt-4o }\n`)).toContain(
      "models.0.upstream: a pattern's upstream id is the id the client asked for",
    );
    expect(
      configError(`${base}models:\n  - { id: "gpt-*", targets: [{ provider: openai, upstream: gpt-4o }] }\n`),
    ).toContain('models.0.targets: a pattern');
    expect(configError(`${base}models:\n  - { id: a, provider: openai }\n  - { id: a, provider: openai }\n`)).toContain(
      "models.1.id: 'a' is given twice",
    );
    expect(configError(`${base}models:\n  - { id: "gpt-*", display_name: GPT, provider: openai }\n`)).toContain(
      'models.0.display_name: a pattern serves many models',
    );
  });
});
