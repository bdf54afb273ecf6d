import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../src/config/load-config.js';
import { createProviders } from '../src/providers/create-providers.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

/** The Markdown files a newcomer reads: README, CONTRIBUTING, docs/ and every package's README. */
function documents(): string[] {
  const files = ['README.md', 'CONTRIBUTING.md'];
  for (const name of readdirSync(join(root, 'docs'))) if (name.endsWith('.md')) files.push(join('docs', name));
  for (const group of ['packages', 'apps']) {
    for (const name of readdirSync(join(root, group))) {
      const readme = join(group, name, 'README.md');
      if (existsSync(join(root, readme))) files.push(readme);
    }
  }
  return files;
}

/** GitHub's anchor of a heading: lower case, punctuation removed, spaces to hyphens. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');
}

/** The anchors of a Markdown file's headings (outside code fences). */
function anchorsOf(text: string): Set<string> {
  const anchors = new Set<string>();
  let fenced = false;
  for (const line of text.split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    const heading = !fenced && /^#{1,6} (.*)$/.exec(line);
    if (heading) anchors.add(slug(heading[1]!));
  }
  return anchors;
}

/** Relative links `[text](target)` of a Markdown file, outside code fences. */
function linksOf(text: string): string[] {
  const links: string[] = [];
  let fenced = false;
  for (const line of text.split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    if (fenced) continue;
    for (const match of line.matchAll(/\]\(([^)\s]+)\)/g)) {
      const target = match[1]!;
      if (!/^[a-z]+:/i.test(target)) links.push(target);
    }
  }
  return links;
}

describe('the documentation', () => {
  it("keeps README a newcomer's page: under 250 lines", () => {
    const lines = readFileSync(join(root, 'README.md'), 'utf8').split('\n').length;
    expect(lines).toBeLessThan(250);
  });

  it('has no broken relative link or anchor in README, CONTRIBUTING, docs/ and the package READMEs', () => {
    const broken: string[] = [];
    const files = documents();
    expect(files.length).toBeGreaterThan(20);
    for (const file of files) {
      const text = readFileSync(join(root, file), 'utf8');
      for (const link of linksOf(text)) {
        const [path, anchor] = link.split('#') as [string, string | undefined];
        const target = path === '' ? join(root, file) : resolve(join(root, dirname(file)), path);
        if (!existsSync(target)) {
          broken.push(`${file}: ${link} (no such file)`);
          continue;
        }
        if (anchor && target.endsWith('.md') && !anchorsOf(readFileSync(target, 'utf8')).has(anchor)) {
          broken.push(`${file}: ${link} (no such heading)`);
        }
      }
    }
    expect(broken).toEqual([]);
  });

  it("README's short configuration is a valid config whose providers all build", async () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    const yaml = /## A short configuration[\s\S]*?```yaml\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(yaml).toBeDefined();
    const env = {
      SWITCHYARD_API_KEY: 'sk-gateway-key-0123456789',
      OPENAI_API_KEY: 'sk-o',
      ANTHROPIC_API_KEY: 'sk-a',
      GEMINI_API_KEY: 'g',
    };
    const config = parseConfig(yaml!, 'README.md', env);
    expect(config.models.map((model) => model.id)).toEqual(['gpt-4o-mini', 'claude-*', 'gemini-2.5-flash']);
    expect(config.aliases).toEqual({ 'claude-opus-5-5': 'claude-sonnet-4-5' });
    expect(Object.keys(await createProviders(config.providers))).toEqual(['openai', 'anthropic', 'google']);
  });
});
