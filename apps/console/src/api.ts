import type {
  AuditPage,
  DeploymentHealth,
  KeyInput,
  KeyView,
  ModelView,
  RequestsPage,
  UsageTotals,
} from './api-types.js';

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

/**
 * The admin API as the console uses it: every call sends `Authorization: Bearer <master key>` (never in the URL) to
 * the same origin, and turns an error answer (`{"error":{"message","code"}}`) into an {@link ApiError}.
 */
export class AdminApi {
  /** `onUnauthorized` is called when the gateway answers 401 (the key is no longer accepted). */
  constructor(
    private readonly masterKey: string,
    private readonly onUnauthorized?: () => void,
  ) {}

  /** Sends one request; resolves with the fetch Response for streams, or throws {@link ApiError}. */
  async send(method: string, path: string, body?: unknown, signal?: AbortSignal): Promise<Response> {
    let res: Response;
    try {
      res = await fetch(path, {
        method,
        headers: {
          authorization: `Bearer ${this.masterKey}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        credentials: 'omit',
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
    return this.#json<{ data: UsageTotals[] }>('GET', withQuery('/admin/usage', query)).then((r) => r.data);
  }

  /** `GET /admin/requests?key=&model=&status=&before=&limit=`. */
  requests(query: Query): Promise<RequestsPage> {
    return this.#json('GET', withQuery('/admin/requests', query));
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
