import type { RealtimeUpstream } from '../adapter/realtime-upstream.js';
import { GatewayError } from '../errors/gateway-error.js';
import { invalidRequestError } from '../errors/common-errors.js';
import { upstreamErrorMeaning } from '../errors/upstream-error-meaning.js';
import { checkModelId } from '../schemas/model-id.js';
import type { CallAccounting } from '../accounting/call-accounting.js';
import type { RouteTarget } from '../model/route-plan.js';
import type { OperationPlans } from './operation-plans.js';
import type { SessionTicket } from '../accounting/session-accounting.js';

/** Options of `Gateway.openRealtime`. */
export interface RealtimeCallOptions {
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
}

/** An admitted Realtime session, ready to be connected: where to, through which deployment, and its ticket. */
export interface RealtimeCall {
  /** The model id the client asked for (shown in place of the upstream's in `session.model`). */
  model: string;
  target: RouteTarget;
  upstream: RealtimeUpstream;
  /** The session's admission, with accounting; give it back with `ticket.close()` when the session ends. */
  ticket?: SessionTicket;
}

const statusOf = (error: unknown) => (GatewayError.isInstance(error) ? error.status : 500);

/**
 * Resolves and admits one Realtime session of `model` (the `model` query parameter): 400 naming `model` when it is
 * missing or not a valid id, 404 `model_not_found`, 400 `unsupported_operation` when no deployment of the model
 * serves realtime, then admission (`CallAccounting.admitSession`: allow-list, rpm, a concurrency slot, the budget;
 * 403/429) and the first realtime deployment's {@link RealtimeUpstream} from its adapter. Sessions are not retried
 * nor failed over once connected; the first deployment of the model that serves realtime is used. Refusals before
 * admission are booked (`CallAccounting.refuse`).
 */
export async function openRealtimeCall(
  plans: OperationPlans,
  accounting: CallAccounting | undefined,
  model: string | undefined,
  options: RealtimeCallOptions,
): Promise<RealtimeCall> {
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
    const target = plan.models[0]?.targets[0];
    if (!target)
      throw invalidRequestError(
        `No deployment of '${model}' serves realtime sessions for this key.`,
        'model',
        'unsupported_operation',
      );
    let upstream: RealtimeUpstream;
    try {
      upstream = target.adapter.realtime!(
        { model: target.upstreamModel },
        {
          signal: options.signal,
          requestId: options.requestId,
          provider: target.provider,
          headers: options.headers,
          clientHeaders: options.clientHeaders,
          warn: () => {},
        },
      );
    } catch (error) {
      throw upstreamErrorMeaning(target.provider, error);
    }
    return { model, target, upstream, ticket };
  } catch (error) {
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
