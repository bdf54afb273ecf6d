import { useState } from 'preact/hooks';
import { ApiError } from '../api.js';
import type { KeyView } from '../api-types.js';
import { Dialog } from '../dialog.js';
import { ErrorNote } from '../error-note.js';

/** Grace periods offered for the replaced secret, seconds. */
const GRACE_CHOICES = [
  { seconds: 0, label: 'none: the old secret stops working now' },
  { seconds: 3_600, label: '1 hour' },
  { seconds: 86_400, label: '1 day (default)' },
  { seconds: 604_800, label: '7 days' },
] as const;

/**
 * Confirms a rotation of `keyView`'s secret and picks how long the old secret stays valid (`grace_seconds`, default one
 * day); `onRotate` calls `POST /admin/keys/:id/rotate` and shows the new secret.
 */
export function RotateKeyDialog({
  keyView,
  onRotate,
  onCancel,
}: {
  keyView: KeyView;
  onRotate: (graceSeconds: number) => Promise<void>;
  onCancel: () => void;
}) {
  const [grace, setGrace] = useState(86_400);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const rotate = async () => {
    setBusy(true);
    setError(null);
    try {
      await onRotate(grace);
    } catch (e) {
      setError(e instanceof ApiError ? e.message : String(e));
      setBusy(false);
    }
  };
  return (
    <Dialog title="Rotate key">
      <p>
        Give <strong>{keyView.name}</strong> a new secret. It keeps its id, limits, spend and history.
      </p>
      <label for="grace-seconds">Old secret stays valid for</label>
      <select id="grace-seconds" value={String(grace)} onChange={(e) => setGrace(Number(e.currentTarget.value))}>
        {GRACE_CHOICES.map((c) => (
          <option key={c.seconds} value={String(c.seconds)}>
            {c.label}
          </option>
        ))}
      </select>
      <div class="actions">
        <button type="button" onClick={rotate} disabled={busy}>
          Rotate secret
        </button>
        <button type="button" class="secondary" onClick={onCancel}>
          Cancel
        </button>
      </div>
      <ErrorNote message={error} />
    </Dialog>
  );
}
