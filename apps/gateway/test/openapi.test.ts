import SwaggerParser from '@apidevtools/swagger-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../src/start-server.js';
import { startGatewayFromYaml } from './helpers/test-gateway.js';

const KEY = 'sk-switchyard-openapi-0123456789';
const MASTER = 'sk-switchyard-openapi-master-0123456789';
let running: RunningServer;
let origin: string;
/** The document as parsed JSON (the assertions check its shape). */
let document: ReturnType<typeof JSON.parse>;

beforeAll(async () => {
  running = await startGatewayFromYaml(`
keys: ["${KEY}"]
server: { port: 0 }
admin: { master_key: "${MASTER}" }
store: { sqlite: ":memory:" }
providers: { openai: { adapter: openai, api_key: sk-x-000000, base_url: "http://127.0.0.1:9/v1" } }
`);
  origin = new URL(running.url).origin;
  const res = await fetch(`${origin}/openapi.json`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toContain('application/json');
  document = await res.json();
});
afterAll(() => running.close());

describe('GET /openapi.json', () => {
  it('is a valid OpenAPI 3.1 document (swagger-parser)', async () => {
    expect(document.openapi).toBe('3.1.0');
    // validate() dereferences every $ref and checks the document against the OpenAPI 3.1 schema; it throws otherwise.
    await expect(SwaggerParser.validate(structuredClone(document) as never)).resolves.toBeDefined();
    // The validator does reject a broken document (a response without its required description).
    const broken = structuredClone(document);
    delete broken.paths['/v1/models'].get.responses['200'].description;
    await expect(SwaggerParser.validate(broken as never)).rejects.toThrow();
  });

  it("carries the zod schemas' constraints (generated, not hand-written)", () => {
    const chat = document.components.schemas.ChatCompletionRequest;
    expect(chat.type).toBe('object');
    expect(chat.required).toEqual(expect.arrayContaining(['model', 'messages']));
    expect(chat.properties.messages.type).toBe('array');
    expect(document.components.schemas.ErrorBody.properties.error.required).toEqual(
      expect.arrayContaining(['message', 'type', 'param', 'code']),
    );
    expect(document.components.schemas.CreateKeyInput.properties.rpm_limit).toBeDefined();
    expect(document.paths['/v1/chat/completions'].post.requestBody.content['application/json'].schema.$ref).toBe(
      '#/components/schemas/ChatCompletionRequest',
    );
  });

  it('documents routes that exist: every GET path without parameters answers, never 404', async () => {
    const headersFor = (path: string) => ({ authorization: `Bearer ${path.startsWith('/admin') ? MASTER : KEY}` });
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining([
        '/v1/chat/completions',
        '/v1/embeddings',
        '/v1/audio/transcriptions',
        '/v1/audio/translations',
        '/v1/audio/speech',
        '/v1/moderations',
        '/v1/images/generations',
        '/v1/completions',
        '/v1/images/edits',
        '/v1/images/variations',
        '/v1/models',
        '/admin/keys',
        '/admin/usage',
      ]),
    );
    for (const [path, item] of Object.entries(document.paths as Record<string, { get?: unknown; post?: unknown }>)) {
      if (!item.get || path.includes('{')) continue;
      const res = await fetch(`${origin}${path}`, { headers: headersFor(path) });
      expect(res.status, path).not.toBe(404);
    }
    for (const [path, item] of Object.entries(document.paths as Record<string, { get?: unknown; post?: unknown }>)) {
      if (!item.post) continue;
      const res = await fetch(`${origin}${path}`, {
        method: 'POST',
        headers: { ...headersFor(path), 'content-type': 'application/json' },
        body: '{}',
      });
      if (path.includes('{')) {
        // A path with a parameter (`{id}` taken literally): the route exists when it answers anything but the router's 404.
        const answer = (await res.json()) as { error?: { message?: string } };
        expect(answer.error?.message ?? '', path).not.toMatch(/^Invalid URL/);
        continue;
      }
      expect([400, 415], path).toContain(res.status); // an empty JSON body is invalid (multipart routes: wrong content type)
    }
  });
});
