import { z } from 'zod';
import { bytes, ms } from './schema-units.js';

/**
 * `GET /v1/realtime` sessions (WebSocket): `max_session_ms` (default 3,600,000), `idle_timeout_ms` (no event either
 * way; default 300,000), `max_message_bytes` (largest client event; default 16 MiB), `max_buffered_bytes` (queued
 * towards a slow peer before the other side is paused; default 4 MiB), `check_interval_ms` (how often expiry,
 * idleness and revoked keys are checked; default 1,000), `connect_timeout_ms` (the upstream handshake; default 10,000).
 */
export const realtimeConfigSchema = z
  .strictObject({
    max_session_ms: ms.default(3_600_000),
    idle_timeout_ms: ms.default(300_000),
    max_message_bytes: bytes.default(16 * 1024 * 1024),
    max_buffered_bytes: bytes.default(4 * 1024 * 1024),
    check_interval_ms: ms.default(1_000),
    connect_timeout_ms: ms.default(10_000),
  })
  .prefault({});
