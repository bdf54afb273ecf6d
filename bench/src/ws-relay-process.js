// The floor of the realtime bench: a bare `ws` relay (no auth, no parsing, no limits): each client WebSocket is piped
// to its own upstream WebSocket, messages forwarded as they are both ways. Any Node realtime proxy pays this.
// argv[2] is the upstream's base URL (`http://127.0.0.1:PORT/v1`).
import { createServer } from 'node:http';
import WebSocket, { WebSocketServer } from 'ws';
import { serveChild } from './child.js';

const upstream = process.argv[2].replace(/^http/, 'ws');
const server = createServer((_req, res) => res.writeHead(404).end());
const wss = new WebSocketServer({ server, perMessageDeflate: false });
wss.on('connection', (client, request) => {
  const model = new URL(request.url ?? '/', 'http://relay').searchParams.get('model');
  const socket = new WebSocket(`${upstream}/realtime?model=${model}`, { perMessageDeflate: false });
  const early = [];
  client.on('message', (data, binary) =>
    socket.readyState === WebSocket.OPEN ? socket.send(data, { binary }) : early.push(data),
  );
  socket.on('open', () => {
    for (const data of early) socket.send(data, { binary: false });
  });
  socket.on('message', (data, binary) => client.readyState === WebSocket.OPEN && client.send(data, { binary }));
  socket.on('close', () => client.close());
  client.on('close', () => socket.close());
  socket.on('error', () => client.terminate());
  client.on('error', () => socket.terminate());
});
server.listen(0, '127.0.0.1', () => serveChild({ url: `http://127.0.0.1:${server.address().port}` }));
process.on('SIGTERM', () => process.exit(0));
