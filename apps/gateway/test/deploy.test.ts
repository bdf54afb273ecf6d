import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { parseConfig } from '../src/config/load-config.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const deploy = join(root, 'deploy');
const read = (path: string) => readFileSync(join(deploy, path), 'utf8');

interface Service {
  build?: { context: string; dockerfile: string };
  image?: string;
  env_file?: string;
  environment?: Record<string, string>;
  volumes?: string[];
  depends_on?: Record<string, unknown> | string[];
}
const compose = parse(read('docker-compose.yml'), { merge: true }) as {
  services: Record<string, Service>;
  volumes?: Record<string, unknown>;
};
const services = compose.services;
const gateways = Object.entries(services).filter(([, s]) => s.build?.dockerfile === 'Dockerfile');

describe('deploy/docker-compose.yml', () => {
  it('has two gateway replicas, Postgres, Redis and a load balancer', () => {
    expect(gateways.map(([name]) => name)).toEqual(['gateway-a', 'gateway-b']);
    expect(services.postgres?.image).toMatch(/^postgres:/);
    expect(services.redis?.image).toMatch(/^redis:/);
    expect(services.loadbalancer?.image).toMatch(/^haproxy:/);
  });

  it('references only files that exist', () => {
    for (const [name, service] of Object.entries(services)) {
      if (service.build) {
        const context = resolve(deploy, service.build.context);
        expect(existsSync(context), `${name}: build context ${context}`).toBe(true);
        expect(existsSync(join(context, service.build.dockerfile)), `${name}: ${service.build.dockerfile}`).toBe(true);
      }
      for (const volume of service.volumes ?? []) {
        const source = volume.split(':')[0] as string;
        if (source.startsWith('.') || source.startsWith('/'))
          expect(existsSync(resolve(deploy, source)), `${name}: volume ${source}`).toBe(true);
        else expect(compose.volumes, `${name}: named volume ${source}`).toHaveProperty(source);
      }
      // env_file .env is the user's copy of .env.example.
      if (service.env_file)
        expect(existsSync(join(deploy, `${service.env_file}.example`)), `${name}: ${service.env_file}.example`).toBe(
          true,
        );
      const dependencies = Array.isArray(service.depends_on)
        ? service.depends_on
        : Object.keys(service.depends_on ?? {});
      for (const dependency of dependencies)
        expect(services, `${name} depends on ${dependency}`).toHaveProperty(dependency);
    }
    const dockerfile = readFileSync(join(root, 'Dockerfile'), 'utf8');
    expect(dockerfile).toMatch(/CMD \["node", "--experimental-async-context-frame", "dist\/cli\.js", "start"/);
    expect(readFileSync(join(root, 'apps/gateway/tsup.config.ts'), 'utf8')).toContain("cli: 'src/cli.ts'");
    expect(existsSync(join(root, 'pnpm-lock.yaml'))).toBe(true);
  });

  it('wires the gateway config: it parses, listens where HAProxy sends traffic, and every variable it needs is provided', () => {
    const gateway = gateways[0]?.[1] as Service;
    const mount = gateway.volumes?.find((v) => v.includes(gateway.environment?.SWITCHYARD_CONFIG as string));
    expect(mount, 'the config file is mounted at SWITCHYARD_CONFIG').toBeDefined();
    const file = (mount as string).split(':')[0] as string;
    const text = readFileSync(resolve(deploy, file), 'utf8');
    const fromEnvFile = Object.fromEntries(
      read('.env.example')
        .split('\n')
        .filter((l) => /^\w+=/.test(l))
        .map((l) => l.split('=', 2) as [string, string]),
    );
    // Compose interpolates `${VAR}` / `${VAR:?message}` in the compose file from deploy/.env.
    const interpolate = (value: string) =>
      value.replace(/\$\{(\w+)(?::\?[^}]*)?\}/g, (_, name: string) => fromEnvFile[name] ?? '');
    const env = {
      ...fromEnvFile,
      ...Object.fromEntries(Object.entries(gateway.environment ?? {}).map(([k, v]) => [k, interpolate(v)])),
    };
    const config = parseConfig(text, file, env);
    expect(config.server.host).toBe('0.0.0.0');
    expect(config.store?.postgres).toBe(
      `postgres://switchyard:${fromEnvFile.POSTGRES_PASSWORD}@postgres:5432/switchyard`,
    );
    expect(config.redis).toMatchObject({ url: 'redis://redis:6379', on_error: 'open' });
    const servers = [...read('haproxy.cfg').matchAll(/^\s*server (\S+) (\S+):(\d+)/gm)];
    expect(servers.map((m) => m[2])).toEqual(gateways.map(([name]) => name));
    for (const m of servers) expect(Number(m[3])).toBe(config.server.port);
    // The image's CMD sets the port too; it must be the same.
    expect(readFileSync(join(root, 'Dockerfile'), 'utf8')).toContain(`"--port", "${config.server.port}"`);
    expect(read('haproxy.cfg')).toMatch(/^\s*bind :8080/m);
    expect(services.loadbalancer?.volumes).toContain('./haproxy.cfg:/usr/local/etc/haproxy/haproxy.cfg:ro');
  });
});
