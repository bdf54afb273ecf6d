import express from 'express';
import { Agent, request } from 'undici';
import { serveChild } from './child.js';
const upstream = process.argv[2];
const N = Number(process.env.FLOOR_LAYERS ?? 0);
const dispatcher = new Agent({ keepAliveTimeout: 60_000 });
const app = express();
for (let i = 0; i < N; i++) app.use((req, res, next) => next());
const r = express.Router();
for (let i = 0; i < N; i++) r.use((req, res, next) => next());
r.post('/chat/completions', (req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', async () => {
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    body.model = 'gpt-4.1-nano';
    const response = await request(`${upstream}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), dispatcher });
    const text = await response.body.text();
    res.setHeader('content-type', 'application/json');
    res.end(text);
  });
});
app.use('/v1', r);
const server = app.listen(0, '127.0.0.1', () => serveChild({ url: `http://127.0.0.1:${server.address().port}` }));
