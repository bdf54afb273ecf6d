import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const dockerfile = readFileSync(join(root, 'Dockerfile'), 'utf8');
/** Instructions with their continuation lines joined, comments dropped. */
const instructions = dockerfile
  .replace(/\\\n/g, ' ')
  .split('\n')
  .map((line) => line.trim())
  .filter((line) => line !== '' && !line.startsWith('#'));
const ignored = readFileSync(join(root, '.dockerignore'), 'utf8')
  .split('\n')
  .map((line) => line.trim())
  .filter((line) => line !== '' && !line.startsWith('#'));

describe('Dockerfile (checked by inspection: no container engine runs here)', () => {
  it('copies only paths that exist in the repository and are not excluded by .dockerignore', () => {
    const copies = instructions.filter((line) => /^COPY\s/i.test(line) && !/--from=/i.test(line));
    expect(copies.length).toBeGreaterThan(0);
    for (const copy of copies) {
      const args = copy
        .split(/\s+/)
        .slice(1)
        .filter((arg) => !arg.startsWith('--'));
      for (const source of args.slice(0, -1)) {
        expect(existsSync(join(root, source)), `${copy}: ${source}`).toBe(true);
        expect(ignored, `${source} is excluded by .dockerignore`).not.toContain(source);
      }
    }
  });

  it('is multi-stage on Node 22 slim, installs production dependencies only, runs as non-root with a health check', () => {
    const froms = instructions.filter((line) => line.startsWith('FROM '));
    expect(froms.length).toBeGreaterThanOrEqual(2);
    for (const from of froms) expect(from).toMatch(/^FROM node:22(\.\d+)*-[a-z]+-slim\b/);
    expect(instructions).toContain('RUN pnpm --filter @switchyard/gateway deploy --prod /out');
    expect(instructions.some((line) => line.startsWith('COPY --from=build') && line.includes('/out'))).toBe(true);
    const user = instructions.filter((line) => line.startsWith('USER ')).at(-1);
    expect(user).toBeDefined();
    expect(user).not.toMatch(/USER (root|0)\b/);
    expect(instructions.find((line) => line.startsWith('HEALTHCHECK'))).toContain('/healthz');
    expect(dockerfile).toContain('SWITCHYARD_CONFIG=/etc/switchyard/switchyard.yaml');
  });

  it('starts the CLI that the gateway package builds, listening on all interfaces', () => {
    const cmd = JSON.parse(instructions.find((line) => line.startsWith('CMD '))!.slice(4)) as string[];
    // Node 22 runs AsyncLocalStorage on async context frames only with this flag (request ids on unhandled rejections).
    expect(cmd.slice(0, 4)).toEqual(['node', '--experimental-async-context-frame', 'dist/cli.js', 'start']);
    expect(cmd).toEqual(expect.arrayContaining(['--host', '0.0.0.0']));
    const gatewayPackage = JSON.parse(readFileSync(join(root, 'apps/gateway/package.json'), 'utf8')) as {
      bin: Record<string, string>;
      files: string[];
    };
    expect(gatewayPackage.bin.switchyard).toBe('./dist/cli.js');
    expect(gatewayPackage.files).toContain('dist');
  });
});
