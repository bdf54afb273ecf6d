import { useEffect, useState } from 'preact/hooks';
import { AdminApi, ApiError, ssoInfo } from '../api.js';
import { ErrorNote } from '../error-note.js';

/**
 * Sign in with single sign-on (a link to `/admin/sso/login`, shown when the gateway has `admin.oidc`) or with the
 * master key, the break-glass login: the key is checked by `POST /admin/session` (recorded in the audit log) before it
 * is kept; a wrong key (401) or a valid key that is not the master key (403) is refused with a message.
 */
export function SignInPage({ onSignedIn }: { onSignedIn: (key: string) => void }) {
  const [key, setKey] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [ssoUrl, setSsoUrl] = useState<string | null>(null);
  useEffect(() => {
    ssoInfo().then(
      (info) => setSsoUrl(info.enabled ? info.login_url : null),
      () => setSsoUrl(null),
    );
  }, []);
  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await new AdminApi(key.trim()).signIn();
      onSignedIn(key.trim());
    } catch (e) {
      const status = e instanceof ApiError ? e.status : 0;
      setError(
        status === 401
          ? 'Wrong master key: the gateway refused it.'
          : status === 403
            ? 'This key is not the master key: the console needs admin.master_key.'
            : `Could not sign in: ${(e as Error).message}`,
      );
    } finally {
      setBusy(false);
    }
  };
  return (
    <main class="sign-in">
      <h1>Switchyard console</h1>
      {ssoUrl && (
        <p>
          <a class="button" href={ssoUrl}>
            Sign in with single sign-on
          </a>
        </p>
      )}
      <form onSubmit={submit}>
        <label for="master-key">Master key</label>
        <input
          id="master-key"
          type="password"
          autocomplete="off"
          required
          value={key}
          onInput={(e) => setKey(e.currentTarget.value)}
        />
        <button type="submit" disabled={busy}>
          Sign in
        </button>
        <ErrorNote message={error} />
      </form>
      <p class="hint">The key stays in this tab only (sessionStorage) and is sent as an Authorization header.</p>
    </main>
  );
}
