import { useState } from 'preact/hooks';
import { type AdminApi, ApiError } from '../api.js';
import type { KeyView } from '../api-types.js';
import { Dialog } from '../dialog.js';
import { ErrorNote } from '../error-note.js';
import { formatCount, formatTime, formatUsd, keyStatus } from '../format.js';
import { useLoad } from '../use-load.js';
import { KeyForm } from './key-form.js';
import { RotateKeyDialog } from './rotate-key-dialog.js';

function limits(key: KeyView): string {
  const parts = [
    key.rpm_limit ? `${formatCount(key.rpm_limit)} RPM` : null,
    key.tpm_limit ? `${formatCount(key.tpm_limit)} TPM` : null,
    key.concurrency_limit ? `${formatCount(key.concurrency_limit)} at once` : null,
  ].filter(Boolean);
  return parts.length ? parts.join(', ') : 'none';
}

function spend(key: KeyView): string {
  const spent = formatUsd(key.spend_usd ?? 0);
  return key.budget_usd === null
    ? `${spent} (${key.budget_period}, no budget)`
    : `${spent} of ${formatUsd(key.budget_usd)} (${key.budget_period})`;
}

/** The key's secret prefixes: the current one and, after a rotation, the previous one while it is still valid. */
function Prefixes({ keyView }: { keyView: KeyView }) {
  const previous =
    keyView.previous_key_prefix &&
    keyView.previous_key_expires_at &&
    Date.parse(keyView.previous_key_expires_at) > Date.now();
  return (
    <>
      <code>{keyView.key_prefix}</code>
      {previous && (
        <div class="hint" data-testid="previous-prefix">
          previous <code>{keyView.previous_key_prefix}</code> valid until{' '}
          {formatTime(keyView.previous_key_expires_at as string)}
        </div>
      )}
    </>
  );
}

/** Shows a new key's secret once, with a copy button. */
function SecretPanel({
  created,
  onDone,
  title = 'Key created',
}: {
  created: KeyView & { key: string };
  onDone: () => void;
  title?: string;
}) {
  const [copied, setCopied] = useState<string | null>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(created.key);
      setCopied('Copied.');
    } catch {
      setCopied('Copying is not allowed here: select the secret and copy it by hand.');
    }
  };
  return (
    <Dialog title={title}>
      <p>
        This is the secret of <strong>{created.name}</strong>. It is shown once: copy it now.
      </p>
      <code class="secret" data-testid="new-key-secret">
        {created.key}
      </code>
      <div class="actions">
        <button type="button" onClick={copy}>
          Copy
        </button>
        <button type="button" class="secondary" onClick={onDone}>
          Done
        </button>
      </div>
      {copied && <p class="hint">{copied}</p>}
    </Dialog>
  );
}

/**
 * The Keys page: the list, "Create key", editing limits, rotating a secret and revoking (with a confirmation).
 * `readOnly` (a viewer) shows the list only; `team` (a team admin) puts new keys in that team.
 */
export function KeysPage({ api, readOnly = false, team }: { api: AdminApi; readOnly?: boolean; team?: string }) {
  const keys = useLoad(() => api.listKeys(), [api]);
  const [mode, setMode] = useState<
    | { kind: 'create' }
    | { kind: 'edit'; key: KeyView }
    | { kind: 'revoke'; key: KeyView }
    | { kind: 'rotate'; key: KeyView }
    | { kind: 'secret'; created: KeyView & { key: string }; title?: string }
    | null
  >(null);
  const [error, setError] = useState<string | null>(null);
  const close = () => setMode(null);

  const revoke = async (key: KeyView) => {
    try {
      await api.revokeKey(key.id);
      close();
      keys.reload();
    } catch (e) {
      setError(e instanceof ApiError ? e.message : String(e));
    }
  };

  return (
    <section>
      <div class="page-head">
        <h1>Keys</h1>
        {!readOnly && (
          <button type="button" onClick={() => setMode({ kind: 'create' })}>
            Create key
          </button>
        )}
      </div>
      <ErrorNote message={keys.error ?? error} />
      <table class="data">
        <thead>
          <tr>
            <th>Name</th>
            <th>Prefix</th>
            <th>Models</th>
            <th>Limits</th>
            <th>Spend this period</th>
            <th>Expires</th>
            <th>Status</th>
            <th>
              <span class="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {keys.data?.length === 0 && (
            <tr>
              <td colSpan={8} class="empty">
                No keys yet: create one.
              </td>
            </tr>
          )}
          {keys.data?.map((key) => {
            const status = keyStatus(key);
            return (
              <tr key={key.id} data-key-id={key.id}>
                <td class="key-name">{key.name}</td>
                <td>
                  <Prefixes keyView={key} />
                </td>
                <td>{key.models ? key.models.join(', ') : 'all'}</td>
                <td>{limits(key)}</td>
                <td>{spend(key)}</td>
                <td>{key.expires_at ? formatTime(key.expires_at) : 'never'}</td>
                <td>
                  <span class={`badge ${status}`}>{status}</span>
                </td>
                <td>
                  {status !== 'revoked' && !readOnly && (
                    <div class="row-actions">
                      <button type="button" class="secondary" onClick={() => setMode({ kind: 'edit', key })}>
                        Edit
                      </button>
                      <button type="button" class="secondary" onClick={() => setMode({ kind: 'rotate', key })}>
                        Rotate
                      </button>
                      <button type="button" class="danger" onClick={() => setMode({ kind: 'revoke', key })}>
                        Revoke
                      </button>
                    </div>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>

      {mode?.kind === 'create' && (
        <Dialog title="Create key">
          <KeyForm
            submitLabel="Create"
            onCancel={close}
            onSubmit={async (input) => {
              const created = await api.createKey(team ? { ...input, team_id: team } : input);
              setMode({ kind: 'secret', created });
              keys.reload();
            }}
          />
        </Dialog>
      )}
      {mode?.kind === 'edit' && (
        <Dialog title="Edit key">
          <KeyForm
            initial={mode.key}
            submitLabel="Save"
            onCancel={close}
            onSubmit={async (input) => {
              await api.updateKey(mode.key.id, input);
              close();
              keys.reload();
            }}
          />
        </Dialog>
      )}
      {mode?.kind === 'secret' && <SecretPanel created={mode.created} title={mode.title} onDone={close} />}
      {mode?.kind === 'rotate' && (
        <RotateKeyDialog
          keyView={mode.key}
          onCancel={close}
          onRotate={async (graceSeconds) => {
            const created = await api.rotateKey(mode.key.id, graceSeconds);
            setMode({ kind: 'secret', created, title: 'Key rotated' });
            keys.reload();
          }}
        />
      )}
      {mode?.kind === 'revoke' && (
        <Dialog title="Revoke key">
          <p>
            Revoke <strong>{mode.key.name}</strong>? Calls with this key are refused from now on; this cannot be undone.
          </p>
          <div class="actions">
            <button type="button" class="danger" onClick={() => revoke(mode.key)}>
              Revoke key
            </button>
            <button type="button" class="secondary" onClick={close}>
              Cancel
            </button>
          </div>
        </Dialog>
      )}
    </section>
  );
}
