import { useCallback, useEffect, useMemo, useState } from 'preact/hooks';
import { AdminApi, cookieSession, type SessionView } from './api.js';
import { AuditPage } from './pages/audit-page.js';
import { KeysPage } from './pages/keys-page.js';
import { ModelsPage } from './pages/models-page.js';
import { PlaygroundPage } from './pages/playground-page.js';
import { RequestsPage } from './pages/requests-page.js';
import { SignInPage } from './pages/sign-in-page.js';
import { SpendersPage } from './pages/spenders-page.js';
import { TeamsPage } from './pages/teams-page.js';
import { UsagePage } from './pages/usage-page.js';
import { clearMasterKey, loadMasterKey, saveMasterKey } from './session.js';

/** The pages, in navigation order: `#/<id>` shows one. */
const PAGES = [
  { id: 'keys', label: 'Keys' },
  { id: 'teams', label: 'Teams' },
  { id: 'usage', label: 'Usage' },
  { id: 'spenders', label: 'End users & sessions' },
  { id: 'requests', label: 'Requests' },
  { id: 'models', label: 'Models' },
  { id: 'playground', label: 'Playground' },
  { id: 'audit', label: 'Audit' },
] as const;
type PageId = (typeof PAGES)[number]['id'];
type Role = SessionView['role'];

/** The pages a role sees (the gateway refuses the rest with 403 anyway): a team admin its teams' keys and usage. */
function pagesOf(role: Role) {
  if (role === 'team_admin')
    return PAGES.filter((p) => p.id === 'keys' || p.id === 'teams' || p.id === 'usage' || p.id === 'requests');
  if (role === 'viewer') return PAGES.filter((p) => p.id !== 'playground');
  return PAGES;
}

function currentPage(): PageId {
  const id = location.hash.replace(/^#\/?/, '');
  return PAGES.find((p) => p.id === id)?.id ?? 'keys';
}

/** How the console is signed in: the master key (kept in this tab), or a single sign-on session (a cookie). */
type Auth = { kind: 'master'; key: string } | { kind: 'session'; session: SessionView };

/**
 * The console: the sign-in page until the master key is accepted or a single sign-on session exists (asked of
 * `GET /admin/session` on load), then the navigation of the role's pages and the page of `#/<id>`.
 */
export function App() {
  const [auth, setAuth] = useState<Auth | null | undefined>(() => {
    const key = loadMasterKey();
    return key ? { kind: 'master', key } : undefined;
  });
  const [page, setPage] = useState<PageId>(currentPage);
  useEffect(() => {
    const onHash = () => setPage(currentPage());
    addEventListener('hashchange', onHash);
    return () => removeEventListener('hashchange', onHash);
  }, []);
  useEffect(() => {
    if (auth !== undefined) return;
    cookieSession().then(
      (session) => setAuth(session ? { kind: 'session', session } : null),
      () => setAuth(null),
    );
  }, [auth]);
  const forget = useCallback(() => {
    clearMasterKey();
    setAuth(null);
  }, []);
  const [chosenTeam, setChosenTeam] = useState<string | undefined>();
  // A team admin works on one of its teams at a time (the first unless chosen in the header).
  const team =
    auth?.kind === 'session' && auth.session.role === 'team_admin'
      ? (auth.session.teams.find((t) => t === chosenTeam) ?? auth.session.teams[0])
      : undefined;
  const api = useMemo(() => {
    if (!auth) return null;
    return auth.kind === 'master'
      ? new AdminApi(auth.key, forget)
      : new AdminApi({ csrfToken: auth.session.csrf_token ?? '' }, forget, team);
  }, [auth, forget, team]);
  if (auth === undefined) return <main class="sign-in" aria-busy="true" />;
  if (!api || !auth) {
    return (
      <SignInPage
        onSignedIn={(key) => {
          saveMasterKey(key);
          setAuth({ kind: 'master', key });
        }}
      />
    );
  }
  const role: Role = auth.kind === 'master' ? 'admin' : auth.session.role;
  const pages = pagesOf(role);
  const shown = pages.find((p) => p.id === page)?.id ?? pages[0]!.id;
  const signOut = () => {
    if (auth.kind === 'session') void api.signOut().finally(forget);
    else forget();
  };
  return (
    <div class="shell">
      <header class="top">
        <span class="brand">Switchyard</span>
        <nav aria-label="Main">
          {pages.map((p) => (
            <a key={p.id} href={`#/${p.id}`} aria-current={p.id === shown ? 'page' : undefined}>
              {p.label}
            </a>
          ))}
        </nav>
        {auth.kind === 'session' && role === 'team_admin' && auth.session.teams.length > 1 && (
          <select aria-label="Team" value={team} onChange={(e) => setChosenTeam(e.currentTarget.value)}>
            {auth.session.teams.map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </select>
        )}
        {auth.kind === 'session' && (
          <span class="who" title={auth.session.teams.join(', ')}>
            {auth.session.actor.replace(/^oidc:/, '')} ({role})
          </span>
        )}
        <button type="button" class="link" onClick={signOut}>
          Sign out
        </button>
      </header>
      <main>
        {shown === 'keys' && <KeysPage api={api} readOnly={role === 'viewer'} team={team} />}
        {shown === 'teams' && <TeamsPage api={api} />}
        {shown === 'usage' && <UsagePage api={api} />}
        {shown === 'spenders' && <SpendersPage api={api} />}
        {shown === 'requests' && <RequestsPage api={api} />}
        {shown === 'models' && <ModelsPage api={api} />}
        {shown === 'playground' && <PlaygroundPage api={api} />}
        {shown === 'audit' && <AuditPage api={api} />}
      </main>
    </div>
  );
}
