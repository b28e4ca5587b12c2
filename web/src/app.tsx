import { useCallback, useEffect, useState } from 'react';
import { onUnauthorized, tokenStore } from './api/index.js';
import { LiveIndicator } from './components/live-indicator.js';
import { TheirsConfirmProvider } from './components/theirs-confirm.js';
import { ToastProvider } from './components/toast-provider.js';
import { TokenForm } from './components/token-form.js';
import { hrefOf, useHashRoute } from './hooks/use-hash-route.js';
import { LiveProvider } from './live/index.js';
import { RecoveryPage } from './pages/recovery-page.js';
import { WorkflowPage } from './pages/workflow-page.js';
import { WorkflowsPage } from './pages/workflows-page.js';

/** The dashboard: the token gate, the header, and the page of the current `#/...` route. */
export function App() {
  const [token, setToken] = useState(() => tokenStore.get());
  const [rejected, setRejected] = useState(false);
  const route = useHashRoute();

  useEffect(
    () =>
      onUnauthorized(() => {
        tokenStore.clear();
        setRejected(true);
        setToken(null);
      }),
    [],
  );
  const signIn = useCallback((t: string) => {
    tokenStore.set(t);
    setRejected(false);
    setToken(t);
  }, []);
  const signOut = () => {
    tokenStore.clear();
    setToken(null);
  };

  if (!token) return <TokenForm onToken={signIn} rejected={rejected} />;
  return (
    <ToastProvider>
      <TheirsConfirmProvider>
        <LiveProvider token={token}>
          <header className="topbar">
            <a className="brand" href={hrefOf.workflows()}>
              Baton
            </a>
            <nav>
              <a href={hrefOf.workflows()}>Workflows</a>
            </nav>
            <span className="spacer" />
            <LiveIndicator />
            <button type="button" className="btn btn-ghost" onClick={signOut}>
              Forget token
            </button>
          </header>
          <main className="page">
            {route.page === 'workflows' && <WorkflowsPage />}
            {route.page === 'workflow' && (
              <WorkflowPage key={route.id} id={route.id} snapshotId={route.snapshotId} />
            )}
            {route.page === 'recover' && <RecoveryPage key={route.id} id={route.id} />}
            {route.page === 'not_found' && (
              <div className="card">
                <h1>Nothing here</h1>
                <p>
                  No page at <code>{route.path}</code>. <a href={hrefOf.workflows()}>Back to the workflows</a>
                  .
                </p>
              </div>
            )}
          </main>
        </LiveProvider>
      </TheirsConfirmProvider>
    </ToastProvider>
  );
}
