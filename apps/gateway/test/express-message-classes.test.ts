import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterAll, describe, expect, it } from 'vitest';
import { expressMessageClasses } from '../src/http/express-message-classes.js';

const app = express();
app.get('/hello', (req, res) => {
  res.json({ path: req.path, query: req.query });
});
const seen: { request: boolean; response: boolean }[] = [];
// What the server hands the app, before Express has touched it.
const server = createServer({ ...expressMessageClasses(app) }, (req, res) => {
  seen.push({
    request: Object.getPrototypeOf(req) === app.request,
    response: Object.getPrototypeOf(res) === app.response,
  });
  app(req, res);
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('expressMessageClasses', () => {
  it("makes requests and responses with the app's prototypes from the start, and Express serves them as usual", async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    for (let i = 0; i < 2; i++) {
      const response = await fetch(`${base}/hello?n=${i}`);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ path: '/hello', query: { n: String(i) } });
    }
    expect(seen).toEqual([
      { request: true, response: true },
      { request: true, response: true },
    ]);
  });
});
