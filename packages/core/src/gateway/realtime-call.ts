import type { RealtimeUpstream } from '../adapter/realtime-upstream.js';
import { GatewayError } from '../errors/gateway-error.js';
import { invalidRequestError } from '../errors/common-errors.js';
import { checkModelId } from '../schemas/model-id.js';
import type { CallAccounting } from '../accounting/call-accounting.js';
import type { RouteTarget } from '../model/route-plan.js';
import type { OperationPlans } from './operation-plans.js';
import type { SessionTicket } from '../accounting/session-accounting.js';
import {
  type RealtimeConnector,
  type RealtimeRouting,
  RealtimeRoutingError,
  connectRealtimeTarget,
} from './realtime-routing.js';

/** Options of `Gateway.openRealtime`; `C` is what `connect` resolves with (the front door's upstream socket). */
export interface RealtimeCallOptions<C = unknown> {
  /** Who calls: what `Gateway.authenticate` returned. */
  caller?: unknown;
  /** The `Authorization` value the caller authenticated with (see `SessionAdmissionRequest.authorization`). */
  authorization?: string;
  /** The upgrade request's id. */
  requestId: string;
  /** The session id (`sess_…`) written on the session's ledger rows. */
  sessionId: string;
  /** Aborted when the client goes away before the session starts. */
  signal: AbortSignal;
  /** Extra headers for the upstream handshake (e.g. `traceparent`). */
  headers?: Record<string, string>;
  /** Client headers a pass-through may forward (lower-case names; e.g. `openai-beta`). */
  clientHeaders?: Readonly<Record<string, string>>;
  /**
   * Opens the upstream connection of one deployment (the WebSocket handshake); a retryable rejection moves the
   * session to the next deployment (see {@link connectRealtimeTarget}).
   */
  connect: RealtimeConnector<C>;
}

/** An admitted and connected Realtime session: the deployment it is on, its upstream connection, and its ticket. */
export interface RealtimeCall<C = unknown> {
  /** The model id the client asked for (shown in place of the upstream's in `session.model`). */
  model: string;
  /** The deployment the session connected to. */
  target: RouteTarget;
  upstream: RealtimeUpstream;
  /** What `options.connect` resolved with for {@link target}. */
  connection: C;
  /** The session's admission, with accounting (its responses are booked with `ticket.book`). */
  ticket?: SessionTicket;
  /** Ends the session's hold: the deployment's in-flight count and the ticket's concurrency slot. Call once; never rejects. */
  close(): Promise<void>;
}

const statusOf = (error: unknown) => (GatewayError.isInstance(error) ? error.status : 500);

/**
 * Resolves, admits and connects one Realtime session of `model` (the `model` query parameter): 400 naming `model` when
 * it is missing or not a valid id, 404 `model_not_found`, 400 `unsupported_operation` when no deployment of the model
 * serves realtime, then admission (`CallAccounting.admitSession`: allow-list, rpm, a concurrency slot, the budget;
 * 403/429), then the deployments in routing order until one connects (see {@link connectRealtimeTarget}). Refusals
 * before admission are booked (`CallAccounting.refuse`); a session admitted but never connected gets one ledger row
 * with the failure's status, and its slot back.
 */
export async function openRealtimeCall<C>(
  plans: OperationPlans,
  accounting: CallAccounting | undefined,
  routing: RealtimeRouting,
  model: string | undefined,
  options: RealtimeCallOptions<C>,
): Promise<RealtimeCall<C>> {
  let ticket: SessionTicket | undefined;
  let admitting = false;
  try {
    if (model === undefined)
      throw invalidRequestError(
        "Missing required parameter: 'model' (the query string's `?model=<id>`).",
        'model',
        'missing_required_parameter',
      );
    checkModelId(model);
    let plan = plans.planFor('realtime', model);
    if (accounting) {
      if (!accounting.admitSession)
        throw invalidRequestError(
          'Realtime sessions need an accountant that admits sessions.',
          'model',
          'unsupported_operation',
        );
      admitting = true;
      ticket = await accounting.admitSession({
        caller: options.caller,
        authorization: options.authorization,
        operation: 'realtime',
        model,
        plan,
        requestId: options.requestId,
        sessionId: options.sessionId,
      });
      plan = ticket.plan;
    }
    const connected = await connectRealtimeTarget(plan, routing, options, options.connect);
    const admitted = ticket;
    return {
      model,
      target: connected.target,
      upstream: connected.upstream,
      connection: connected.connection,
      ticket: admitted,
      close: async () => {
        connected.release();
        await admitted?.close();
      },
    };
  } catch (caught) {
    const error = caught instanceof RealtimeRoutingError ? caught.error : caught;
    const target = caught instanceof RealtimeRoutingError ? caught.target : undefined;
    if (ticket && target)
      await ticket.book({ responseId: options.requestId, target, status: statusOf(error), latencyMs: 0 });
    await ticket?.close();
    if (!admitting)
      accounting?.refuse?.({
        caller: options.caller,
        model: typeof model === 'string' ? model.slice(0, 256) : '',
        requestId: options.requestId,
        stream: true,
        status: statusOf(error),
      });
    throw error;
  }
}
