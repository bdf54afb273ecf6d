import { useState } from 'preact/hooks';
import type { KeyInput, KeyView } from '../api-types.js';
import { ErrorNote } from '../error-note.js';
import { parseModelList } from '../format.js';

/** Text of an optional number field as a number, null when empty; throws naming the field when it is not one. */
function optionalNumber(text: string, label: string, integer: boolean): number | null {
  if (text.trim() === '') return null;
  const n = Number(text);
  if (!Number.isFinite(n) || n <= 0 || (integer && !Number.isInteger(n)))
    throw new Error(`${label}: expected a positive ${integer ? 'whole number' : 'number'}.`);
  return n;
}

/** ISO-8601 time as the value of a `datetime-local` input (local time), or ''. */
function toLocalInput(iso: string | null): string {
  if (!iso) return '';
  const date = new Date(iso);
  return new Date(date.getTime() - date.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
}

/**
 * The form of "Create key" (submitted with "Create") and of "Edit" (submitted with "Save"): Name, Models (ids or
 * globs), RPM limit, TPM limit, Concurrency limit, Budget (USD), Budget period, Expires, Metadata (a JSON object). Empty fields mean no
 * limit. `onSubmit` gets the admin API body and shows its error, if any, under the form.
 */
export function KeyForm({
  initial,
  submitLabel,
  onSubmit,
  onCancel,
}: {
  initial?: KeyView;
  submitLabel: string;
  onSubmit: (input: KeyInput) => Promise<void>;
  onCancel: () => void;
}) {
  const [name, setName] = useState(initial?.name ?? '');
  const [models, setModels] = useState(initial?.models?.join(', ') ?? '');
  const [rpm, setRpm] = useState(initial?.rpm_limit?.toString() ?? '');
  const [tpm, setTpm] = useState(initial?.tpm_limit?.toString() ?? '');
  const [concurrency, setConcurrency] = useState(initial?.concurrency_limit?.toString() ?? '');
  const [budget, setBudget] = useState(initial?.budget_usd?.toString() ?? '');
  const [period, setPeriod] = useState<KeyInput['budget_period']>(initial?.budget_period ?? 'total');
  const [expires, setExpires] = useState(toLocalInput(initial?.expires_at ?? null));
  const [metadata, setMetadata] = useState(initial?.metadata ? JSON.stringify(initial.metadata) : '');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: Event) => {
    event.preventDefault();
    setError(null);
    let input: KeyInput;
    try {
      let meta: Record<string, unknown> | null = null;
      if (metadata.trim()) {
        const parsed = JSON.parse(metadata) as unknown;
        if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
          throw new Error('Metadata: expected a JSON object such as {"team": "a"}.');
        meta = parsed as Record<string, unknown>;
      }
      input = {
        name: name.trim(),
        models: parseModelList(models),
        rpm_limit: optionalNumber(rpm, 'RPM limit', true),
        tpm_limit: optionalNumber(tpm, 'TPM limit', true),
        concurrency_limit: optionalNumber(concurrency, 'Concurrency limit', true),
        budget_usd: optionalNumber(budget, 'Budget (USD)', false),
        budget_period: period,
        expires_at: expires ? new Date(expires).toISOString() : null,
        metadata: meta,
      };
    } catch (e) {
      setError(e instanceof SyntaxError ? `Metadata: ${e.message}` : (e as Error).message);
      return;
    }
    setBusy(true);
    try {
      await onSubmit(input);
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form class="key-form" onSubmit={submit}>
      <label for="key-name">Name</label>
      <input id="key-name" required maxLength={200} value={name} onInput={(e) => setName(e.currentTarget.value)} />
      <label for="key-models">Models</label>
      <input
        id="key-models"
        placeholder="gpt-4o*, anthropic/* (empty: all models)"
        value={models}
        onInput={(e) => setModels(e.currentTarget.value)}
      />
      <label for="key-rpm">RPM limit</label>
      <input id="key-rpm" type="number" min="1" step="1" value={rpm} onInput={(e) => setRpm(e.currentTarget.value)} />
      <label for="key-tpm">TPM limit</label>
      <input id="key-tpm" type="number" min="1" step="1" value={tpm} onInput={(e) => setTpm(e.currentTarget.value)} />
      <label for="key-concurrency">Concurrency limit</label>
      <input
        id="key-concurrency"
        type="number"
        min="1"
        step="1"
        placeholder="calls in flight at once"
        value={concurrency}
        onInput={(e) => setConcurrency(e.currentTarget.value)}
      />
      <label for="key-budget">Budget (USD)</label>
      <input
        id="key-budget"
        type="number"
        min="0"
        step="any"
        value={budget}
        onInput={(e) => setBudget(e.currentTarget.value)}
      />
      <label for="key-period">Budget period</label>
      <select
        id="key-period"
        value={period}
        onChange={(e) => setPeriod(e.currentTarget.value as KeyInput['budget_period'])}
      >
        <option value="total">total</option>
        <option value="day">day (UTC)</option>
        <option value="month">month (UTC)</option>
      </select>
      <label for="key-expires">Expires</label>
      <input
        id="key-expires"
        type="datetime-local"
        value={expires}
        onInput={(e) => setExpires(e.currentTarget.value)}
      />
      <label for="key-metadata">Metadata</label>
      <textarea
        id="key-metadata"
        rows={2}
        placeholder='{"team": "a"}'
        value={metadata}
        onInput={(e) => setMetadata(e.currentTarget.value)}
      />
      <div class="actions">
        <button type="submit" disabled={busy}>
          {submitLabel}
        </button>
        <button type="button" class="secondary" onClick={onCancel}>
          Cancel
        </button>
      </div>
      <ErrorNote message={error} />
    </form>
  );
}
