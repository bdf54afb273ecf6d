import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocket, WebSocketServer } from 'ws';

/** The path of Gemini Live's WebSocket (v1beta). */
export const GEMINI_LIVE_PATH = '/ws/google.ai.generativelanguage.v1beta.GenerativeService.BidiGenerateContent';

/** One session the Gemini Live mock accepted. */
export interface MockGeminiLiveConnection {
  url: string;
  headers: IncomingHttpHeaders;
  /** Every client message, parsed, in order (the `setup` first). */
  received: Record<string, unknown>[];
  socket: WebSocket;
  drop(): void;
}

/** A running Gemini Live mock. */
export interface MockGeminiLive {
  /** `http://127.0.0.1:<port>/v1beta`: the Google adapter's `base_url`. */
  baseURL: string;
  connections: MockGeminiLiveConnection[];
  close(): Promise<void>;
}

/** The fields of Gemini Live client messages the mock reads. */
interface GeminiSetup {
  generationConfig?: { responseModalities?: string[] };
  tools?: { functionDeclarations?: { name: string }[] }[];
}
interface ClientMessage {
  setup?: GeminiSetup;
  clientContent?: { turns?: { parts?: { text?: string }[] }[]; turnComplete?: boolean };
  toolResponse?: { functionResponses?: { response?: unknown }[] };
  realtimeInput?: { audio?: { data?: string; mimeType?: string }; audioStreamEnd?: boolean };
}

/** PCM16 mono at 24 kHz, Gemini Live's output audio: 48,000 bytes per second. */
const OUTPUT_BYTES_PER_SECOND = 48_000;
/** PCM16 mono at 16 kHz, its input audio: 32,000 bytes per second. */
const INPUT_BYTES_PER_SECOND = 32_000;

/**
 * A mock of Gemini Live (`BidiGenerateContent` over WebSocket) on loopback: the first message must be `setup`
 * (answered `setupComplete`; anything else closes with 1007). `clientContent` with `turnComplete` gets `Gemini heard:
 * <text>` (text parts, or with `AUDIO` three 100 ms `audio/pcm;rate=24000` parts and an `outputTranscription`), or a
 * `toolCall` of the first declared function when the text mentions the weather; `toolResponse` gets `Tool said:
 * <response JSON>`; `realtimeInput.audio` (must be `audio/pcm;rate=16000`) is counted and answered at
 * `audioStreamEnd`. Every turn ends with `turnComplete` and a `usageMetadata` with TEXT and AUDIO details (text:
 * characters / 4; audio: 25 tokens per second).
 * @see https://ai.google.dev/api/live
 */
export async function startMockGeminiLive(): Promise<MockGeminiLive> {
  const server = createServer((_req, res) => res.writeHead(404).end());
  const wss = new WebSocketServer({ noServer: true, perMessageDeflate: false });
  const connections: MockGeminiLiveConnection[] = [];
  server.on('upgrade', (request, socket, head) => {
    if (!(request.url ?? '').startsWith(GEMINI_LIVE_PATH)) {
      socket.end('HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\nconnection: close\r\n\r\n');
      return;
    }
    wss.handleUpgrade(request, socket, head, (ws) => {
      const connection: MockGeminiLiveConnection = {
        url: request.url ?? '',
        headers: request.headers,
        received: [],
        socket: ws,
        drop: () => ws.terminate(),
      };
      connections.push(connection);
      let setup: GeminiSetup | undefined;
      let audioBytes = 0;
      const send = (message: unknown) => ws.readyState === WebSocket.OPEN && ws.send(JSON.stringify(message));
      const audioOut = () => (setup?.generationConfig?.responseModalities ?? []).includes('AUDIO');
      const usage = (textIn: number, audioIn: number, textOut: number, audioOutTokens: number) => ({
        promptTokenCount: textIn + audioIn,
        responseTokenCount: textOut + audioOutTokens,
        totalTokenCount: textIn + audioIn + textOut + audioOutTokens,
        promptTokensDetails: [
          { modality: 'TEXT', tokenCount: textIn },
          ...(audioIn ? [{ modality: 'AUDIO', tokenCount: audioIn }] : []),
        ],
        responseTokensDetails: [
          ...(textOut ? [{ modality: 'TEXT', tokenCount: textOut }] : []),
          ...(audioOutTokens ? [{ modality: 'AUDIO', tokenCount: audioOutTokens }] : []),
        ],
      });
      const answer = (text: string, textIn: number, audioIn: number) => {
        if (audioOut()) {
          const chunk = Buffer.alloc(OUTPUT_BYTES_PER_SECOND / 10).toString('base64');
          for (let i = 0; i < 3; i++)
            send({
              serverContent: {
                modelTurn: { parts: [{ inlineData: { mimeType: 'audio/pcm;rate=24000', data: chunk } }] },
              },
            });
          send({ serverContent: { outputTranscription: { text } } });
          send({
            serverContent: { turnComplete: true },
            usageMetadata: usage(textIn, audioIn, 0, Math.ceil(0.3 * 25)),
          });
        } else {
          const half = Math.ceil(text.length / 2);
          send({ serverContent: { modelTurn: { role: 'model', parts: [{ text: text.slice(0, half) }] } } });
          send({ serverContent: { modelTurn: { role: 'model', parts: [{ text: text.slice(half) }] } } });
          send({ serverContent: { generationComplete: true } });
          send({
            serverContent: { turnComplete: true },
            usageMetadata: usage(textIn, audioIn, Math.ceil(text.length / 4), 0),
          });
        }
      };
      ws.on('message', (data) => {
        const message = JSON.parse(String(data)) as ClientMessage;
        connection.received.push(message as Record<string, unknown>);
        if (!setup) {
          if (!message.setup) return void ws.close(1007, 'the first message must be setup');
          setup = message.setup;
          return void send({ setupComplete: {} });
        }
        if (message.clientContent?.turnComplete) {
          const text = (message.clientContent.turns ?? [])
            .flatMap((t) => t.parts ?? [])
            .map((p) => p.text ?? '')
            .join(' ');
          const fn = setup.tools?.[0]?.functionDeclarations?.[0];
          if (fn && /weather/i.test(text)) {
            send({
              toolCall: {
                functionCalls: [
                  { id: `fc_${connections.length}_${Date.now()}`, name: fn.name, args: { city: 'Paris' } },
                ],
              },
              usageMetadata: usage(Math.ceil(text.length / 4), 0, 5, 0),
            });
          } else answer(`Gemini heard: ${text}`, Math.ceil(text.length / 4), 0);
        } else if (message.toolResponse) {
          answer(`Tool said: ${JSON.stringify(message.toolResponse.functionResponses?.[0]?.response ?? null)}`, 10, 0);
        } else if (message.realtimeInput?.audio) {
          if (message.realtimeInput.audio.mimeType !== 'audio/pcm;rate=16000')
            return void ws.close(1007, 'unsupported audio mime type');
          audioBytes += Buffer.from(String(message.realtimeInput.audio.data), 'base64').length;
        } else if (message.realtimeInput?.audioStreamEnd) {
          const seconds = audioBytes / INPUT_BYTES_PER_SECOND;
          audioBytes = 0;
          answer(`Gemini heard ${seconds.toFixed(1)} s of audio`, 0, Math.ceil(seconds * 25));
        }
      });
      ws.on('error', () => {});
    });
  });
  server.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1beta`,
    connections,
    close: async () => {
      for (const connection of connections) connection.socket.terminate();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
