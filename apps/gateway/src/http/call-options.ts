import { type CacheDirective, type CallLabels, type GatewayCallOptions, invalidRequestError } from '@switchyard/core';
import type { Request, Response } from 'express';
import { keyOwner } from './key-owner.js';
import { locals } from './request-locals.js';

function intHeader(req: Request, name: string, min: number): number | undefined {
  const raw = req.get(name);
  if (raw === undefined || raw === '') return undefined;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min)
    throw invalidRequestError(`Invalid header '${name}': expected an integer >= ${min}.`, name, 'invalid_header');
  return value;
}

/**
 * The `x-switchyard-cache` request header: `no-cache` (neither read nor write the response cache) or a TTL in whole
 * seconds (>= 1) for which this request's answer may be cached (the gateway caps it at `cache.max_ttl_s`). Throws 400
 * naming the header for anything else.
 */
function cacheHeader(req: Request): CacheDirective | undefined {
  const raw = req.get('x-switchyard-cache')?.trim();
  if (raw === undefined || raw === '') return undefined;
  if (raw.toLowerCase() === 'no-cache') return 'no-cache';
  if (/^\d{1,9}$/.test(raw) && Number(raw) >= 1) return { ttlS: Number(raw) };
  throw invalidRequestError(
    "Invalid header 'x-switchyard-cache': expected 'no-cache' or a TTL in seconds (an integer >= 1).",
    'x-switchyard-cache',
    'invalid_header',
  );
}

/** Longest label value kept on a ledger row, characters; a longer header is cut to this length. */
export const MAX_LABEL_LENGTH = 128;

/** The request headers that label a call, by the ledger column they fill. */
const LABEL_HEADERS: readonly [keyof CallLabels, string][] = [
  ['session_id', 'x-claude-code-session-id'],
  ['agent_id', 'x-claude-code-agent-id'],
  ['parent_agent_id', 'x-claude-code-parent-agent-id'],
];

/**
 * The call's labels from Claude Code's headers (`x-claude-code-session-id`, `-agent-id`, `-parent-agent-id`), the
 * session from the app's `sessionHeader` (config `budgets.session_header`) when Claude Code's is absent, each cut to
 * {@link MAX_LABEL_LENGTH} characters so that the ledger stays bounded; undefined when none was sent.
 * @see https://code.claude.com/docs/en/llm-gateway-protocol
 */
function callLabels(req: Request): CallLabels | undefined {
  let labels: CallLabels | undefined;
  for (const [column, header] of LABEL_HEADERS) {
    const value = req.get(header)?.trim();
    if (value) (labels ??= {})[column] = value.slice(0, MAX_LABEL_LENGTH);
  }
  const sessionHeader = req.app?.locals.sessionHeader as string | undefined;
  const session = sessionHeader && !labels?.session_id ? req.get(sessionHeader)?.trim() : undefined;
  if (session) (labels ??= {}).session_id = session.slice(0, MAX_LABEL_LENGTH);
  return labels;
}

/** Where {@link callOptions} keeps the request and the cache scope it computed, for the shared getter. */
const REQUEST = Symbol('switchyard.callRequest');
const SCOPE = Symbol('switchyard.cacheScope');
type ScopedOptions = GatewayCallOptions & { [REQUEST]: Request; [SCOPE]: string | undefined };

/** `cacheScope` of {@link callOptions}: a SHA-256 of the key, computed only for a call that would use the cache. */
function cacheScope(this: ScopedOptions): string | undefined {
  this[SCOPE] ??= keyOwner(this[REQUEST]);
  return this[SCOPE];
}

/**
 * The gateway call options of one HTTP request: abort signal, request id and caller (from authentication), plus the per-request overrides
 * `x-switchyard-max-retries` (retries per target) and `x-switchyard-timeout-ms` (total deadline, ms), which the
 * gateway clamps to its configured ceilings, and the response cache's `x-switchyard-cache` (see {@link cacheHeader}) with
 * the caller's cache scope (a hash of its key, see {@link keyOwner}), and the call's labels for the ledger (see
 * {@link callLabels}). `onAccepted` is a streamed call's callback for the moment an upstream accepts it (see
 * `GatewayCallOptions.onAccepted`); `clientHeaders` the client headers a front door forwards to a pass-through
 * upstream (see `GatewayCallOptions.clientHeaders`), given here rather than spread into a copy (a spread runs the
 * `cacheScope` getter: a SHA-256 of the key on every call). Throws 400 naming the header when one is invalid.
 */
export function callOptions(
  req: Request,
  res: Response,
  onAccepted?: GatewayCallOptions['onAccepted'],
  clientHeaders?: GatewayCallOptions['clientHeaders'],
): GatewayCallOptions {
  const { signal, requestId, caller } = locals(res);
  const labels = callLabels(req);
  // A streamed call keeps its options for its whole life, so they stay a fast-mode object (about 100 bytes, against
  // about 450 for a dictionary): every field a route may set later is there from the start, and the `cacheScope`
  // getter is one function for all calls (a getter made per call gives every object a map of its own, and V8 soon
  // turns such objects into dictionaries). `onAccepted` is given here, never stored into the object later: V8 keeps a
  // closure stored into a field of an object made before it alive across scavenges (with what it reaches: here the
  // whole call) until a mark-compact (docs/performance-log.md, sessions 17 and 18).
  const options: ScopedOptions = {
    ...(labels && { labels }),
    signal,
    requestId,
    caller,
    maxRetries: intHeader(req, 'x-switchyard-max-retries', 0),
    timeoutMs: intHeader(req, 'x-switchyard-timeout-ms', 1),
    cache: cacheHeader(req),
    onAccepted,
    upstreamHeaders: undefined,
    clientHeaders,
    [REQUEST]: req,
    [SCOPE]: undefined,
  };
  return Object.defineProperty(options, 'cacheScope', { get: cacheScope, enumerable: true, configurable: true });
}
