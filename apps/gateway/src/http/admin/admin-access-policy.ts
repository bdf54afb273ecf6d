import type { Accounts, AdminRole } from '@switchyard/accounts';
import { teamNotFoundError } from '@switchyard/accounts';
import { GatewayError, invalidRequestError } from '@switchyard/core';
import type { Request, RequestHandler } from 'express';
import { adminIdentity } from './admin-identity.js';

/**
 * How a `team_admin` is held to its teams on a route: `key` (the `:id` key must belong to one of them), `team` (the
 * `:id` team must be one of them), `query` (the `team=` filter must name one of them; with one team it is implied),
 * `handler` (the route itself filters lists or checks the body's `team_id`; see `team-scope.ts`).
 */
export type TeamScope = 'key' | 'team' | 'query' | 'handler';

/** One admin route and who may call it (the master key and `admin` may call every route). */
export interface AdminRouteRule {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** The route's path under `/admin`, as registered (`:id` for a parameter). */
  path: string;
  /** Roles allowed besides `admin`. */
  roles: readonly Exclude<AdminRole, 'admin'>[];
  /** How a `team_admin` (when allowed) is held to its teams. */
  scope?: TeamScope;
}

const READ_ALL = ['viewer', 'team_admin'] as const;

/**
 * Every admin route and the roles allowed on it. A route missing here is refused (403) to every role but `admin`, and
 * `admin-roles.test.ts` fails until it is listed. `viewer` reads everything and changes nothing; `team_admin` reads and
 * changes its teams' keys and reads their usage (and the model list, for its keys' allow-lists),
 * nothing else.
 */
export const ADMIN_ROUTE_RULES: readonly AdminRouteRule[] = [
  { method: 'GET', path: '/session', roles: READ_ALL },
  { method: 'POST', path: '/session', roles: READ_ALL },
  { method: 'DELETE', path: '/session', roles: READ_ALL },
  { method: 'POST', path: '/keys', roles: ['team_admin'], scope: 'handler' },
  { method: 'GET', path: '/keys', roles: READ_ALL, scope: 'handler' },
  { method: 'GET', path: '/keys/:id', roles: READ_ALL, scope: 'key' },
  { method: 'PATCH', path: '/keys/:id', roles: ['team_admin'], scope: 'key' },
  { method: 'POST', path: '/keys/:id/rotate', roles: ['team_admin'], scope: 'key' },
  { method: 'DELETE', path: '/keys/:id', roles: ['team_admin'], scope: 'key' },
  { method: 'GET', path: '/usage/export', roles: READ_ALL, scope: 'query' },
  { method: 'GET', path: '/usage', roles: READ_ALL, scope: 'query' },
  { method: 'POST', path: '/teams', roles: [] },
  { method: 'GET', path: '/teams', roles: READ_ALL, scope: 'handler' },
  { method: 'GET', path: '/teams/:id', roles: READ_ALL, scope: 'team' },
  { method: 'PATCH', path: '/teams/:id', roles: [] },
  { method: 'DELETE', path: '/teams/:id', roles: [] },
  { method: 'POST', path: '/organizations', roles: [] },
  { method: 'GET', path: '/organizations', roles: ['viewer'] },
  { method: 'GET', path: '/organizations/:id', roles: ['viewer'] },
  { method: 'PATCH', path: '/organizations/:id', roles: [] },
  { method: 'DELETE', path: '/organizations/:id', roles: [] },
  { method: 'GET', path: '/requests', roles: READ_ALL, scope: 'query' },
  { method: 'GET', path: '/batches', roles: ['viewer'] },
  { method: 'GET', path: '/audit', roles: ['viewer'] },
  { method: 'GET', path: '/models', roles: READ_ALL },
  { method: 'GET', path: '/health', roles: ['viewer'] },
  { method: 'POST', path: '/playground/chat/completions', roles: [] },
];

const compiled = ADMIN_ROUTE_RULES.map((rule) => ({
  rule,
  pattern: new RegExp(`^${rule.path.replace(/:[a-z_]+/g, '([^/]+)')}/?$`),
}));

/** The rule of a request (HEAD as GET) and its `:id`; undefined when no rule matches. */
export function ruleOf(method: string, path: string): { rule: AdminRouteRule; id?: string } | undefined {
  const wanted = method === 'HEAD' ? 'GET' : method;
  for (const { rule, pattern } of compiled) {
    if (rule.method !== wanted) continue;
    const match = pattern.exec(path);
    if (match) return { rule, id: match[1] === undefined ? undefined : decodeURIComponent(match[1]) };
  }
  return undefined;
}

/** 403 for a role that may not call a route. */
export const forbidden = (message: string) =>
  new GatewayError({ status: 403, type: 'invalid_request_error', code: 'forbidden', message });

/** 404 for a key the caller may not see (or that does not exist). */
export const keyNotFoundError = (id: string) =>
  new GatewayError({
    status: 404,
    type: 'invalid_request_error',
    code: 'key_not_found',
    param: 'id',
    message: `No key with id '${id}'.`,
  });

/** Applies a `query` scope: the `team=` filter must be one of `teams` (implied when there is one). */
function scopeQuery(req: Request, teams: readonly string[]): void {
  const named = typeof req.query.team === 'string' && req.query.team !== '' ? req.query.team : undefined;
  if (named !== undefined && !teams.includes(named)) throw forbidden(`You administer no team '${named}'.`);
  if (named !== undefined) return;
  if (teams.length !== 1) throw invalidRequestError('Name one of the teams you administer with team=.', 'team');
  Object.defineProperty(req, 'query', { value: { ...req.query, team: teams[0] }, configurable: true, writable: true });
}

/**
 * The admin API's authorization, run after authentication on every admin request: the caller's role must be allowed
 * by the route's {@link AdminRouteRule} (403 `forbidden` otherwise; routes without a rule are `admin` only), and a
 * `team_admin` is held to its teams (an `:id` outside them answers 404 as if it did not exist).
 */
export function authorizeAdmin(accounts: Accounts): RequestHandler {
  return (req, res, next) => {
    const identity = adminIdentity(res);
    if (identity.role === 'admin') return next();
    const found = ruleOf(req.method, req.path);
    if (!found || !(found.rule.roles as readonly AdminRole[]).includes(identity.role))
      throw forbidden(`The role '${identity.role}' may not ${req.method} ${req.baseUrl}${req.path}.`);
    if (identity.role !== 'team_admin') return next();
    const { rule, id = '' } = found;
    if (rule.scope === 'key') {
      const teamId = accounts.keys.get(id)?.team_id;
      if (!teamId || !identity.teams.includes(teamId)) throw keyNotFoundError(id);
    } else if (rule.scope === 'team' && !identity.teams.includes(id)) throw teamNotFoundError(id);
    else if (rule.scope === 'query') scopeQuery(req, identity.teams);
    next();
  };
}
