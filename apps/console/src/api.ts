import type {
  AuditPage,
  BatchView,
  DeploymentHealth,
  KeyInput,
  KeyView,
  LimitGroupView,
  ModelView,
  RequestsPage,
  UsageTotals,
} from './api-types.js';

/** What `load` lists, or none when the caller's role may not list it (403): a team admin has no organisations or batches. */
export async function visibleOrNone<T>(load: Promise<T[]>): Promise<T[]> {
  try {
    return await load;
  } catch (error) {
    if (error instanceof ApiError && error.status === 403) return [];
    throw error;
  }
}

/** A failed admin API call: the HTTP status and the error message the gateway sent. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code?: string,
  ) {
    super(message);
  }
}

/** Query parameters; empty and undefined values are left out. */
export type Query = Record<string, string | number | undefined>;

function withQuery(path: string, query: Query = {}): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query))
    if (value !== undefined && value !== '') params.set(name, String(value));
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}

/** Who the console is signed in as (`GET /admin/session`). */
export interface SessionView {
  actor: string;
  role: 'admin' | 'team_admin' | 'viewer';
  teams: string[];
  method: 'master_key' | 'oidc';
  /** The cookie session's CSRF token, sent back in `x-csrf-token` on changes; null for the master key. */
  csrf_token: string | null;
  expires_at: string | null;
}

/** A console session signed in with single sign-on: the HTTP-only cookie authenticates, this token guards changes. */
export interface CookieCredential {
  csrfToken: string;
}

const SAFE_METHODS = new Set(['GET', 'HEAD']);

/**
 * The admin API as the console uses it, on the same origin. With the master key, every call sends
 * `Authorization: Bearer <master key>` (never in the URL) and no cookie; with a single sign-on session, the browser
 * sends the HTTP-only session cookie and every change also sends the session's CSRF token in `x-csrf-token`. An error
 * answer (`{"error":{"message","code"}}`) becomes an {@link ApiError}.
 */
export class AdminApi {
  /** `onUnauthorized` is called when the gateway answers 401 (the key or session is no longer accepted). */
  constructor(
    private readonly credential: string | CookieCredential,
    private readonly onUnauthorized?: () => void,
    /** A team admin's team: usage and requests are asked for it (`team=`) unless a query names one. */
    private readonly team?: string,
  ) {}

  /** `query` with this console's team (see the constructor) when it names none. */
  #scoped(query: Query): Query {
    return this.team && query.team === undefined ? { ...query, team: this.team } : query;
  }

  #headers(method: string, hasBody: boolean): Record<string, string> {
    const headers: Record<string, string> = hasBody ? { 'content-type': 'application/json' } : {};
    if (typeof this.credential === 'string') headers.authorization = `Bearer ${this.credential}`;
    else if (!SAFE_METHODS.has(method)) headers['x-csrf-token'] = this.credential.csrfToken;
    return headers;
  }

  /** Sends one request; resolves with the fetch Response for streams, or throws {@link ApiError}. */
  async send(method: string, path: string, body?: unknown, signal?: AbortSignal): Promise<Response> {
    let res: Response;
    try {
      res = await fetch(path, {
        method,
        headers: this.#headers(method, body !== undefined),
        body: body === undefined ? undefined : JSON.stringify(body),
        credentials: typeof this.credential === 'string' ? 'omit' : 'same-origin',
        cache: 'no-store',
        signal,
      });
    } catch (error) {
      throw new ApiError(0, `The gateway did not answer: ${(error as Error).message}`);
    }
    if (!res.ok) {
      const answer = (await res.json().catch(() => undefined)) as
        | { error?: { message?: string; code?: string } }
        | undefined;
      if (res.status === 401) this.onUnauthorized?.();
      throw new ApiError(res.status, answer?.error?.message ?? `HTTP ${res.status}`, answer?.error?.code);
    }
    return res;
  }

  async #json<T>(method: string, path: string, body?: unknown): Promise<T> {
    return (await (await this.send(method, path, body)).json()) as T;
  }

  /** `GET /admin/session`: who is signed in. */
  session(): Promise<SessionView> {
    return this.#json('GET', '/admin/session');
  }

  /** `POST /admin/session`: a master-key sign-in, recorded in the audit log. */
  signIn(): Promise<SessionView> {
    return this.#json('POST', '/admin/session');
  }

  /** `DELETE /admin/session`: ends a single sign-on session on the gateway (and its cookie). */
  async signOut(): Promise<void> {
    await this.send('DELETE', '/admin/session');
  }

  listKeys(): Promise<KeyView[]> {
    return this.#json<{ data: KeyView[] }>('GET', '/admin/keys').then((r) => r.data);
  }

  createKey(input: KeyInput): Promise<KeyView & { key: string }> {
    return this.#json('POST', '/admin/keys', input);
  }

  updateKey(id: string, input: KeyInput): Promise<KeyView> {
    return this.#json('PATCH', `/admin/keys/${encodeURIComponent(id)}`, input);
  }

  /** `POST /admin/keys/:id/rotate`: a new secret (shown once); the old one stays valid `graceSeconds`. */
  rotateKey(id: string, graceSeconds: number): Promise<KeyView & { key: string }> {
    return this.#json('POST', `/admin/keys/${encodeURIComponent(id)}/rotate`, { grace_seconds: graceSeconds });
  }

  revokeKey(id: string): Promise<KeyView> {
    return this.#json('DELETE', `/admin/keys/${encodeURIComponent(id)}`);
  }

  /** `GET /admin/usage`: `from`/`to` unix ms, `group_by` key, model or day. */
  usage(query: Query): Promise<UsageTotals[]> {
    return this.#json<{ data: UsageTotals[] }>('GET', withQuery('/admin/usage', this.#scoped(query))).then(
      (r) => r.data,
    );
  }

  /** `GET /admin/requests?key=&model=&status=&before=&limit=`. */
  requests(query: Query): Promise<RequestsPage> {
    return this.#json('GET', withQuery('/admin/requests', this.#scoped(query)));
  }

  /** `GET /admin/teams`: the teams the caller may see, each with its spend in its current budget window. */
  teams(): Promise<LimitGroupView[]> {
    return this.#json<{ data: LimitGroupView[] }>('GET', '/admin/teams').then((r) => r.data);
  }

  /** `GET /admin/organizations`: every organisation, with its spend in its current budget window (not for team admins). */
  organizations(): Promise<LimitGroupView[]> {
    return this.#json<{ data: LimitGroupView[] }>('GET', '/admin/organizations').then((r) => r.data);
  }

  /** `GET /admin/batches`: the batches still running, with their progress. */
  batches(): Promise<BatchView[]> {
    return this.#json<{ data: BatchView[] }>('GET', '/admin/batches').then((r) => r.data);
  }

  /** `GET /admin/audit?actor=&target=&action=&from=&to=&before=&limit=`. */
  audit(query: Query): Promise<AuditPage> {
    return this.#json('GET', withQuery('/admin/audit', query));
  }

  models(): Promise<ModelView[]> {
    return this.#json<{ data: ModelView[] }>('GET', '/admin/models').then((r) => r.data);
  }

  health(): Promise<DeploymentHealth[]> {
    return this.#json<{ data: DeploymentHealth[] }>('GET', '/admin/health').then((r) => r.data);
  }
}

/** `GET /admin/sso`: whether single sign-on is configured, and where it starts. */
export async function ssoInfo(): Promise<{ enabled: boolean; login_url: string | null }> {
  const res = await fetch('/admin/sso', { credentials: 'omit', cache: 'no-store' });
  if (!res.ok) return { enabled: false, login_url: null };
  return (await res.json()) as { enabled: boolean; login_url: string | null };
}

/** The signed-in single sign-on session of this browser (its cookie), or null when there is none. */
export async function cookieSession(): Promise<SessionView | null> {
  const res = await fetch('/admin/session', { credentials: 'same-origin', cache: 'no-store' });
  if (!res.ok) return null;
  const view = (await res.json()) as SessionView;
  return view.method === 'oidc' && view.csrf_token ? view : null;
}
