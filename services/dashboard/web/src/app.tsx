import { LocationProvider, Route, Router, useLocation } from 'preact-iso';
import { useEffect } from 'preact/hooks';
import { AccountPage } from './pages/account';
import { ConnectPage } from './pages/connect';
import { HomePage } from './pages/home';
import { OwnerPage } from './pages/owner';
import { SignInPage } from './pages/sign-in';
import { useAction } from './hooks';
import { SessionProvider, useSession } from './session';
import { Button, ErrorNote, Loading } from './ui';

export function App() {
  return (
    <SessionProvider>
      <LocationProvider>
        <Shell />
      </LocationProvider>
    </SessionProvider>
  );
}

function Shell() {
  const { session, failure, retry, signOut } = useSession();
  const leaving = useAction(() => signOut());
  const location = useLocation();
  const onSignIn = location.path === '/sign-in';
  useEffect(() => {
    // Signed out anywhere but the sign-in page: there, and back here afterwards.
    if (session === null && !onSignIn) location.route(`/sign-in?next=${encodeURIComponent(location.url)}`, true);
  }, [session, onSignIn]);
  if (failure) {
    return (
      <main class="centered">
        <div class="stack">
          <ErrorNote error={failure} />
          <Button onClick={retry}>Try again</Button>
        </div>
      </main>
    );
  }
  if (session === undefined || (session === null && !onSignIn)) {
    return (
      <main class="centered">
        <Loading />
      </main>
    );
  }
  return (
    <>
      <a class="skip-link" href="#main">
        Skip to content
      </a>
      <header class="topbar">
        <a class="brand" href="/">
          <img src="/favicon.svg" alt="" width="24" height="24" /> Dashboard
        </a>
        {session && (
          <nav aria-label="Account" class="account">
            <a class="account-email" href="/account">
              {session.account?.email ?? 'operator'}
            </a>
            <button type="button" class="button plain" disabled={leaving.running} onClick={() => void leaving.run()}>
              Sign out
            </button>
          </nav>
        )}
      </header>
      {leaving.error && (
        <div class="page">
          <ErrorNote error={leaving.error} />
        </div>
      )}
      <main id="main">
        <Router>
          <Route path="/sign-in" component={SignInPage} />
          <Route path="/connect/:token" component={ConnectPage} />
          <Route path="/account" component={AccountPage} />
          <Route path="/restaurants/:id" component={OwnerPage} kind="restaurant" />
          <Route path="/restaurants/:id/:tab" component={OwnerPage} kind="restaurant" />
          <Route path="/integrators/:id" component={OwnerPage} kind="integrator" />
          <Route path="/integrators/:id/:tab" component={OwnerPage} kind="integrator" />
          <Route default component={HomePage} />
        </Router>
      </main>
    </>
  );
}
