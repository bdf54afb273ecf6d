import {
  authenticationError,
  type CallAccounting,
  type CallAdmissionRequest,
  type CallLabels,
  type CallTicket,
  GatewayError,
  type SessionAdmissionRequest,
  type SessionTicket,
} from '@switchyard/core';
import type { KeyGroups } from './call-admission.js';
import type { Admission } from './admission.js';
import type { KeyAccountsPort } from './key-accounts-port.js';
import type { Principal } from './principal.js';
import { admitSession } from './session-admission.js';
import { type CallEstimateDetail, estimateCall } from './estimate-call.js';
import { labelColumns } from './settlement-booking.js';
import { KeyCallTicket } from './key-call-ticket.js';
import { filterPlanForKey } from './filter-plan.js';
import type { UsageRow } from './usage-row.js';
import type { CallParties } from './call-scopes.js';

/** Longest end-user or session id kept, characters (longer ones are cut). */
const MAX_PARTY_LENGTH = 128;

const text = (value: unknown) =>
  typeof value === 'string' && value.trim() ? value.trim().slice(0, MAX_PARTY_LENGTH) : undefined;

/**
 * Who a call is for: its end user (OpenAI's `safety_identifier`, else `user`, else Anthropic's `metadata.user_id`) and
 * its agent session (the client's session label, else Codex's `prompt_cache_key`), each cut to 128 characters.
 * @see https://platform.openai.com/docs/api-reference/chat/create#chat-create-safety_identifier
 */
export function callParties(body: Record<string, unknown>, labels: CallLabels | undefined): CallParties {
  const metadata = body.metadata && typeof body.metadata === 'object' ? (body.metadata as Record<string, unknown>) : {};
  const endUser = text(body.safety_identifier) ?? text(body.user) ?? text(metadata.user_id);
  const session = text(labels?.session_id) ?? text(body.prompt_cache_key);
  return { ...(endUser && { endUser }), ...(session && { session }) };
}

const statusOf = (error: unknown) => (GatewayError.isInstance(error) ? error.status : 500);

/**
 * Core's {@link CallAccounting} on the gateway's `Accounts` (through {@link KeyAccountsPort}): authenticates keys, narrows each plan to what the key may use
 * (allow-list, fallbacks included; priced deployments only for keys with a budget), reserves the call's estimated
 * tokens and cost, and settles them after the call with a ledger row. Refused calls (401, 403, 429) get a row with
 * their status and no cost, as are calls refused before admission (400 invalid body, 404 unknown model). Every billable attempt is booked: the answer's reported usage, else an estimate (the
 * tokenizer on the streamed text; the prompt estimate for attempts whose answer never came), marked
 * `usage_estimated`.
 */
export class KeyAccounting implements CallAccounting {
  constructor(private readonly accounts: KeyAccountsPort) {}

  #refused(
    requestId: string,
    keyId: string,
    model: string,
    status: number,
    stream: boolean,
    extra: Partial<UsageRow> = {},
  ): void {
    this.accounts.record({
      ...extra,
      request_id: requestId,
      key_id: keyId,
      model,
      provider: null,
      upstream_model: null,
      prompt_tokens: 0,
      completion_tokens: 0,
      cost_usd: 0,
      latency_ms: 0,
      ttfb_ms: null,
      status,
      stream,
      created_at: Date.now(),
      attempts: 0,
    });
  }

  authenticate(
    authorization: string | undefined,
    context: { requestId: string; clientAddress?: string },
  ): Principal | Promise<Principal> {
    const refused = (error: unknown): never => {
      this.#refused(
        context.requestId,
        this.accounts.identify(authorization)?.key.id ?? 'unauthenticated',
        '',
        statusOf(error),
        false,
      );
      throw error;
    };
    try {
      const principal = this.accounts.authenticate(authorization, context.clientAddress);
      return principal instanceof Promise ? principal.catch(refused) : principal;
    } catch (error) {
      return refused(error);
    }
  }

  refuse(refusal: {
    caller: unknown;
    model: string;
    requestId: string;
    stream: boolean;
    status: number;
    labels?: CallLabels;
  }): void {
    const principal = refusal.caller as Principal | undefined;
    const keyId =
      principal?.kind === 'virtual'
        ? principal.state.key.id
        : principal?.kind === 'static'
          ? 'static'
          : 'unauthenticated';
    this.#refused(
      refusal.requestId,
      keyId,
      refusal.model,
      refusal.status,
      refusal.stream,
      labelColumns(refusal.labels),
    );
  }

  admitSession(request: SessionAdmissionRequest): Promise<SessionTicket> {
    return admitSession(this.accounts, request, (requestId, keyId, model, status, extra) =>
      this.#refused(requestId, keyId, model, status, true, extra),
    );
  }

  admit(request: CallAdmissionRequest): Promise<CallTicket> {
    const principal = request.caller as Principal | undefined;
    if (!principal || (principal.kind !== 'static' && principal.kind !== 'virtual')) {
      return Promise.reject(
        authenticationError(
          'No caller: authenticate the request with gateway.authenticate() and pass its result as `caller`.',
        ),
      );
    }
    const keyId = principal.kind === 'virtual' ? principal.state.key.id : 'static';
    let estimate: CallEstimateDetail;
    let plan = request.plan;
    const parties = callParties(request.request, request.labels);
    // A session named only by the body (Codex's prompt_cache_key) is booked as the row's session too.
    const labels: CallLabels | undefined =
      parties.session && !request.labels?.session_id
        ? { ...request.labels, session_id: parties.session }
        : request.labels;
    let admitted: Promise<Admission>;
    try {
      if (principal.kind === 'virtual') {
        const { team, organization } = this.accounts.groupsOf(principal.state.key);
        plan = filterPlanForKey(plan, principal.state.key, team, organization);
      }
      estimate = estimateCall(request.operation, request.request, plan);
      // Allow-lists name the model the request resolved to (an alias's target), never the alias.
      const allowed = request.plan.models[0]?.id ?? request.model;
      const limits = request.operation === 'anthropicCountTokens' ? 'requests' : 'all';
      admitted = this.accounts.admit(principal, allowed, estimate, limits, parties);
    } catch (error) {
      this.#refusedCall(request, principal, keyId, labels, parties, error);
      return Promise.reject(error);
    }
    // One `then`, no async frame: the admission's promise is the limiter's answer mapped (see `admitCall`).
    return admitted.then(
      (admission) => {
        // The admission's headers were made for this call alone: its price source is added to them, not to a copy.
        const booked = labels === request.labels ? request : { ...request, labels };
        return new KeyCallTicket(this.accounts, principal, admission, keyId, booked, estimate, plan);
      },
      (error: unknown) => {
        this.#refusedCall(request, principal, keyId, labels, parties, error);
        throw error;
      },
    );
  }

  /** Books the refusal of an admission (`error`, thrown by the allow-lists or the limits) as a ledger row. */
  #refusedCall(
    request: CallAdmissionRequest,
    principal: Principal,
    keyId: string,
    labels: CallLabels | undefined,
    parties: CallParties,
    error: unknown,
  ): void {
    const groups: KeyGroups = principal.kind === 'virtual' ? this.accounts.groupsOf(principal.state.key) : {};
    const { team, organization } = groups;
    this.#refused(request.requestId, keyId, request.model, statusOf(error), request.stream, {
      operation: request.operation,
      ...labelColumns(labels),
      ...(team && { team_id: team.id }),
      ...(organization && { organization_id: organization.id }),
      ...(parties.endUser && { end_user: parties.endUser }),
    });
  }
}
