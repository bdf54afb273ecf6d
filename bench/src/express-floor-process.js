// The floor (issue #34): a plain Express 5 app written as Express's documentation shows it: `express.json()`, one
// handler per route that sets the upstream model and forwards the request with undici, piping the answer back
// (streamed or not); `app.listen`, no prototype tricks. What Switchyard's figures are compared with: below it
// Switchyard cannot go while it uses Express.
import { pipeline } from 'node:stream/promises';
import express from 'express';
import { Agent, request } from 'undici';
import { serveChild } from './child.js';

const upstream = process.argv[2];
const dispatcher = new Agent({ keepAliveTimeout: 60_000, connections: null });
const upstreamModels = { bench: 'gpt-4.1-nano', embed: 'text-embedding-3-small' };

const app = express();
app.use(express.json({ limit: '10mb' }));
app.post(['/v1/chat/completions', '/v1/embeddings'], async (req, res, next) => {
  try {
    const body = { ...req.body, model: upstreamModels[req.body.model] ?? req.body.model };
    const answer = await request(`${upstream}${req.path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer sk-bench-upstream-000' },
      body: JSON.stringify(body),
      dispatcher,
    });
    res.status(answer.statusCode);
    res.set('content-type', answer.headers['content-type']);
    await pipeline(answer.body, res);
  } catch (error) {
    // A client that goes away mid-answer (the load generator at the end of a run) is not an error to report.
    if (res.headersSent || req.destroyed) res.destroy();
    else next(error);
  }
});
const server = app.listen(0, '127.0.0.1', () => serveChild({ url: `http://127.0.0.1:${server.address().port}` }));
