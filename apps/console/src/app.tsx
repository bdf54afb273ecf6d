import { useCallback, useEffect, useMemo, useState } from 'preact/hooks';
import { AdminApi } from './api.js';
import { AuditPage } from './pages/audit-page.js';
import { KeysPage } from './pages/keys-page.js';
import { ModelsPage } from './pages/models-page.js';
import { PlaygroundPage } from './pages/playground-page.js';
import { RequestsPage } from './pages/requests-page.js';
import { SignInPage } from './pages/sign-in-page.js';
import { UsagePage } from './pages/usage-page.js';
import { clearMasterKey, loadMasterKey, saveMasterKey } from './session.js';

/** The pages, in navigation order: `#/<id>` shows one. */
const PAGES = [
  { id: 'keys', label: 'Keys' },
  { id: 'usage', label: 'Usage' },
  { id: 'requests', label: 'Requests' },
  { id: 'models', label: 'Models' },
  { id: 'playground', label: 'Playground' },
  { id: 'audit', label: 'Audit' },
] as const;
type PageId = (typeof PAGES)[number]['id'];

function currentPage(): PageId {
  const id = location.hash.replace(/^#\/?/, '');
  return PAGES.find((p) => p.id === id)?.id ?? 'keys';
}

/** The console: the sign-in page until a master key is accepted, then the navigation and the page of `#/<id>`. */
export function App() {
  const [masterKey, setMasterKey] = useState<string | null>(() => loadMasterKey());
  const [page, setPage] = useState<PageId>(currentPage);
  useEffect(() => {
    const onHash = () => setPage(currentPage());
    addEventListener('hashchange', onHash);
    return () => removeEventListener('hashchange', onHash);
  }, []);
  const signOut = useCallback(() => {
    clearMasterKey();
    setMasterKey(null);
  }, []);
  const api = useMemo(() => (masterKey ? new AdminApi(masterKey, signOut) : null), [masterKey, signOut]);
  if (!api) {
    return (
      <SignInPage
        onSignedIn={(key) => {
          saveMasterKey(key);
          setMasterKey(key);
        }}
      />
    );
  }
  return (
    <div class="shell">
      <header class="top">
        <span class="brand">Switchyard</span>
        <nav aria-label="Main">
          {PAGES.map((p) => (
            <a key={p.id} href={`#/${p.id}`} aria-current={p.id === page ? 'page' : undefined}>
              {p.label}
            </a>
          ))}
        </nav>
        <button type="button" class="link" onClick={signOut}>
          Sign out
        </button>
      </header>
      <main>
        {page === 'keys' && <KeysPage api={api} />}
        {page === 'usage' && <UsagePage api={api} />}
        {page === 'requests' && <RequestsPage api={api} />}
        {page === 'models' && <ModelsPage api={api} />}
        {page === 'playground' && <PlaygroundPage api={api} />}
        {page === 'audit' && <AuditPage api={api} />}
      </main>
    </div>
  );
}
