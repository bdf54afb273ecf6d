export { type ClientCredentials, KEY_PROTOCOL_PREFIX, readClientCredentials } from './client-credentials.js';
export { type ConnectUpstreamOptions, connectUpstream } from './connect-upstream.js';
export { BackPressuredChannel } from './back-pressured-channel.js';
export {
  type RealtimeEndReason,
  type RealtimeLimits,
  type RealtimeOptions,
  type RealtimeSessionEnd,
  realtimeLimits,
} from './realtime-options.js';
export { RealtimeServer } from './realtime-server.js';
export { RealtimeSession, type RealtimeSessionInit } from './realtime-session.js';
export { MAX_OPEN_RESPONSES, ResponseMeter } from './response-meter.js';
export { refuseUpgrade } from './refuse-upgrade.js';
export { type SessionClosing, sessionClosing } from './session-closing.js';
export { replaceSessionModel } from './session-model-name.js';
