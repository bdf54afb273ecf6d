import { randomUUID } from 'node:crypto';
import type { AccountStore } from './account-store.js';
import type { AuditEntry, AuditQuery } from './audit-entry.js';

/** What a caller records; the log adds `id` and `created_at`. */
export type AuditInput = Omit<AuditEntry, 'id' | 'created_at' | 'before' | 'after' | 'target' | 'source_address'> &
  Partial<Pick<AuditEntry, 'before' | 'after' | 'target' | 'source_address'>>;

/** Options of {@link AuditLog}. */
export interface AuditLogOptions {
  /** A failed store write (the admin change itself has been made). */
  onError?: (error: unknown) => void;
  /** Most `sign_in.failed` entries written per minute by this process; the rest are counted. Default 60. */
  failedSignInsPerMinute?: number;
}

/** Field names never written to the audit log, at any depth (secrets, their hashes, credentials). */
const SECRET_FIELDS = new Set([
  'key',
  'key_hash',
  'previous_key_hash',
  'secret',
  'api_key',
  'password',
  'client_secret',
  'token',
  'id_token',
  'access_token',
  'master_key',
  'authorization',
  'cookie',
]);
/** Longest text kept in an entry's `actor`, `target` and `action`, characters. */
const MAX_TEXT = 256;

function withoutSecrets(value: unknown, depth = 0): unknown {
  if (Array.isArray(value)) return depth > 8 ? '[…]' : value.map((v) => withoutSecrets(v, depth + 1));
  if (value === null || typeof value !== 'object') return value;
  if (depth > 8) return '[…]';
  return Object.fromEntries(
    Object.entries(value).flatMap(([name, v]) =>
      SECRET_FIELDS.has(name.toLowerCase()) ? [] : [[name, withoutSecrets(v, depth + 1)]],
    ),
  );
}

const clip = (text: string) => (text.length > MAX_TEXT ? text.slice(0, MAX_TEXT) : text);

/**
 * The audit log: who changed what, when, from where, with the values before and after (secrets and hashes removed at
 * any depth). Entries go straight to the store (append-only; see {@link AccountStore.appendAudit}); a failed write is
 * reported to `onError`, never thrown (the change it records has been made). Failed sign-ins are what an attacker can
 * cause at will: at most `failedSignInsPerMinute` are written per minute, and the next one written carries
 * `after.unrecorded_failures`, how many were left out, so the table stays bounded.
 */
export class AuditLog {
  readonly #onError: (error: unknown) => void;
  readonly #failedPerMinute: number;
  #window = 0;
  #failedInWindow = 0;
  #unrecorded = 0;

  constructor(
    private readonly store: AccountStore,
    options: AuditLogOptions = {},
  ) {
    this.#onError = options.onError ?? (() => {});
    this.#failedPerMinute = options.failedSignInsPerMinute ?? 60;
  }

  /** Writes one entry; resolves when stored (or when the failure has been reported). Never rejects. */
  async record(input: AuditInput, now = Date.now()): Promise<void> {
    let after = input.after ?? null;
    if (input.action === 'sign_in.failed') {
      const window = Math.floor(now / 60_000);
      if (window !== this.#window) [this.#window, this.#failedInWindow] = [window, 0];
      if (++this.#failedInWindow > this.#failedPerMinute) {
        this.#unrecorded++;
        return;
      }
      if (this.#unrecorded > 0) [after, this.#unrecorded] = [{ ...after, unrecorded_failures: this.#unrecorded }, 0];
    }
    const entry: AuditEntry = {
      id: `aud_${randomUUID().replaceAll('-', '')}`,
      created_at: now,
      actor: clip(input.actor),
      action: clip(input.action),
      target: input.target ? clip(input.target) : null,
      source_address: input.source_address ?? null,
      before: (withoutSecrets(input.before ?? null) as Record<string, unknown> | null) ?? null,
      after: (withoutSecrets(after) as Record<string, unknown> | null) ?? null,
    };
    await this.store.appendAudit(entry).catch(this.#onError);
  }

  /** Entries matching `query`, newest first. Rejects with the store's error. */
  list(query: AuditQuery): Promise<AuditEntry[]> {
    return this.store.listAudit(query);
  }
}
