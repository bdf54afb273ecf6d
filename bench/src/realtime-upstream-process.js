// The mock Realtime upstream (testkit's scripted GA events) in its own process, for the realtime bench.
import { startMockRealtimeUpstream } from '@switchyard/testkit';
import { serveChild } from './child.js';

const upstream = await startMockRealtimeUpstream();
serveChild({ url: upstream.baseURL });
process.on('SIGTERM', () => process.exit(0));
