import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import net, { type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import tls from 'node:tls';

/** A running TLS terminator (see {@link startTlsTerminator}). */
export interface TlsTerminator {
  /** The port clients connect to with TLS. */
  port: number;
  /** The self-signed certificate (PEM) to trust, e.g. `ws`'s `ca` option. */
  ca: string;
  close(): Promise<void>;
}

/**
 * A TLS-terminating TCP proxy on loopback in front of `targetPort` (what a load balancer does in front of the gateway),
 * with a fresh self-signed certificate for `127.0.0.1` and `localhost` made by the `openssl` command. For clients that
 * only speak `wss:`, such as the `openai` SDK's realtime client. Throws when `openssl` fails.
 */
export async function startTlsTerminator(targetPort: number): Promise<TlsTerminator> {
  const dir = mkdtempSync(join(tmpdir(), 'sy-tls-'));
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-days',
        '1',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
        '-subj',
        '/CN=localhost',
        '-addext',
        'subjectAltName=IP:127.0.0.1,DNS:localhost',
      ],
      { stdio: 'ignore' },
    );
    const key = readFileSync(join(dir, 'key.pem'), 'utf8');
    const cert = readFileSync(join(dir, 'cert.pem'), 'utf8');
    const sockets = new Set<net.Socket>();
    const server = tls.createServer({ key, cert }, (secure) => {
      const plain = net.connect(targetPort, '127.0.0.1');
      sockets.add(secure);
      sockets.add(plain);
      secure.pipe(plain).pipe(secure);
      const end = () => {
        secure.destroy();
        plain.destroy();
        sockets.delete(secure);
        sockets.delete(plain);
      };
      secure.on('error', end).on('close', end);
      plain.on('error', end).on('close', end);
    });
    server.listen(0, '127.0.0.1');
    await new Promise<void>((resolve) => server.once('listening', resolve));
    return {
      port: (server.address() as AddressInfo).port,
      ca: cert,
      close: async () => {
        for (const socket of sockets) socket.destroy();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      },
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
