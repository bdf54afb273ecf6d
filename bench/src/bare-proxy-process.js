// The floor: a bare pass-through proxy (node:http + undici request, no parsing, no logic). Any Node gateway pays this.
import { createServer } from 'node:http';
import { Agent, request } from 'undici';
import { serveChild } from './child.js';

const upstream = process.argv[2];
const dispatcher = new Agent({ keepAliveTimeout: 60_000, connections: null });
const server = createServer(async (req, res) => {
  try {
    const headers = { ...req.headers };
    delete headers.host;
    delete headers.connection;
    const response = await request(`${upstream}${req.url}`, {
      method: req.method,
      headers,
      body: req.method === 'GET' ? undefined : req,
      dispatcher,
    });
    const out = { ...response.headers };
    delete out['transfer-encoding'];
    delete out.connection;
    delete out['keep-alive'];
    res.writeHead(response.statusCode, out);
    for await (const chunk of response.body) res.write(chunk);
    res.end();
  } catch {
    if (!res.headersSent) res.writeHead(502);
    res.end();
  }
});
server.keepAliveTimeout = 65_000;
server.listen(0, '127.0.0.1', () => serveChild({ url: `http://127.0.0.1:${server.address().port}` }));
