import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type ChatCompletion, type ChatCompletionChunk, createGateway, isChunkStream } from '@switchyard/core';
import { createOpenAI } from '@switchyard/provider-openai';
import { type MockUpstream, openaiReplayRoutes, startMockUpstream } from '@switchyard/testkit';
import express from 'express';
import OpenAI from 'openai';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, createRouter, handleErrors, requestContext } from '../src/index.js';
import { recordedOpenAIText as recorded } from './helpers/recorded-openai.js';

const KEY = 'sk-embedded-gateway-0123456789';
let upstream: MockUpstream;
let server: Server;
let origin: string;

const gatewayFor = (url: string) =>
  createGateway({
    providers: { openai: createOpenAI({ apiKey: 'sk-upstream-000000', baseURL: `${url}/v1` }) },
    models: [{ id: 'chat', provider: 'openai' }],
    keys: [KEY],
  });

beforeAll(async () => {
  upstream = await startMockUpstream({ routes: openaiReplayRoutes() });
  const gateway = gatewayFor(upstream.url);
  const outer = express();
  outer.get('/', (_req, res) => {
    res.send('the host application');
  });
  outer.use('/ai', createApp(gateway, { logger: pino({ level: 'silent' }) }));
  outer.use('/api/llm', requestContext(), createRouter(gateway), handleErrors());
  server = outer.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  server.closeAllConnections();
  await upstream.close();
});

describe('mounted in another Express app', () => {
  it.each([
    ['createApp under /ai', '/ai/v1'],
    ['createRouter under /api/llm', '/api/llm'],
  ])('%s serves the OpenAI API', async (_name, prefix) => {
    const client = new OpenAI({ baseURL: `${origin}${prefix}`, apiKey: KEY, maxRetries: 0 });
    const completion = await client.chat.completions.create({
      model: 'chat',
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(completion.choices[0]?.message.content).toBe(recorded);
    const unauthorised = new OpenAI({ baseURL: `${origin}${prefix}`, apiKey: 'sk-nope-000000000000', maxRetries: 0 });
    await expect(unauthorised.models.list()).rejects.toMatchObject({ status: 401 });
  });

  it("leaves the host app's own routes alone", async () => {
    expect(await (await fetch(`${origin}/`)).text()).toBe('the host application');
  });
});

describe('createGateway from plain Node code (no HTTP server)', () => {
  it('answers a chat completion', async () => {
    const gateway = gatewayFor(upstream.url);
    const result = await gateway.chatCompletions({ model: 'chat', messages: [{ role: 'user', content: 'hi' }] });
    expect(isChunkStream(result.data)).toBe(false);
    expect((result.data as ChatCompletion).choices[0]?.message.content).toBe(recorded);
    expect(result.provider).toBe('openai');
  });

  it('streams chunks', async () => {
    const gateway = gatewayFor(upstream.url);
    const result = await gateway.chatCompletions({
      model: 'openai/gpt-4.1-nano',
      stream: true,
      messages: [{ role: 'user', content: 'hi' }],
    });
    let text = '';
    for await (const chunk of result.data as AsyncIterable<ChatCompletionChunk>)
      text += chunk.choices[0]?.delta.content ?? '';
    expect(text.length).toBeGreaterThan(100);
    expect((await result.finished)?.usage?.total_tokens).toBeGreaterThan(0);
  });
});
