import { type TlsTerminator, startTlsTerminator } from '@switchyard/testkit';
import type { RunningServer } from '../../src/start-server.js';
import { startGatewayFromYaml } from './test-gateway.js';

/** A gateway for realtime tests and the TLS terminator in front of it (the SDK's realtime client speaks only `wss:`). */
export interface RealtimeGateway {
  running: RunningServer;
  /** `https://127.0.0.1:<port>` in front of the gateway, with its certificate (`openSdkSession` takes it). */
  tls: TlsTerminator;
  /** `http://127.0.0.1:<port>`: the gateway itself. */
  origin: string;
  /** `ws://127.0.0.1:<port>`: the gateway itself, for plain `ws` clients (`rawUpgrade`). */
  wsOrigin: string;
  /** Closes the gateway, then the terminator. */
  close(): Promise<void>;
}

/** Starts the gateway from `yaml` (logging nothing) on an ephemeral port and a TLS terminator in front of it. */
export async function startRealtimeGateway(yaml: string): Promise<RealtimeGateway> {
  const running = await startGatewayFromYaml(yaml);
  const tls = await startTlsTerminator(running.port);
  return {
    running,
    tls,
    origin: `http://127.0.0.1:${running.port}`,
    wsOrigin: `ws://127.0.0.1:${running.port}`,
    close: async () => {
      await running.close();
      await tls.close();
    },
  };
}
