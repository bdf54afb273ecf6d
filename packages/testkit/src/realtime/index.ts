export {
  type MockRealtimeEvent,
  MockRealtimeScript,
  type MockRealtimeScriptOptions,
  PCM16_24KHZ_BYTES_PER_SECOND,
} from './mock-realtime-script.js';
export {
  type MockRealtimeConnection,
  type MockRealtimeUpstream,
  type MockRealtimeUpstreamOptions,
  startMockRealtimeUpstream,
} from './start-mock-realtime-upstream.js';
export { type TlsTerminator, startTlsTerminator } from './start-tls-terminator.js';
export {
  GEMINI_LIVE_PATH,
  type MockGeminiLive,
  type MockGeminiLiveConnection,
  startMockGeminiLive,
} from './start-mock-gemini-live.js';
