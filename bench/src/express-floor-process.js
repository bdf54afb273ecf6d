// Calibration: an Express 5 handler that only reads the body, JSON.parses it, forwards it with undici and writes the
// answer, on a server built as Switchyard's is (requests and responses born with the app's prototypes, see
// `expressMessageClasses`; plain `app.listen` costs about 60 us more per call here, in Express's `setPrototypeOf`).
// It shows what Express itself costs on this machine, below which Switchyard cannot go while using Express.
import { createServer } from 'node:http';
import { expressMessageClasses } from '@switchyard/gateway';
import express from 'express';
import { Agent, request } from 'undici';
import { serveChild } from './child.js';

const upstream = process.argv[2];
const dispatcher = new Agent({ keepAliveTimeout: 60_000 });
const app = express();
app.post('/v1/chat/completions', (req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', async () => {
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    body.model = 'gpt-4.1-nano';
    const response = await request(`${upstream}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      dispatcher,
    });
    const text = await response.body.text();
    res.setHeader('content-type', 'application/json');
    res.end(text);
  });
});
const server = createServer(expressMessageClasses(app), app).listen(0, '127.0.0.1', () =>
  serveChild({ url: `http://127.0.0.1:${server.address().port}` }),
);
