import { useLocation } from 'preact-iso';
import { useEffect, useState } from 'preact/hooks';
import type { TSession } from '@partner/contracts/console';
import { send } from '../api';
import { useAction } from '../hooks';
import { useSession } from '../session';
import { Button, ErrorNote, Field, Loading, Note } from '../ui';

/** Only a path of this site: `next` never sends anyone elsewhere. */
const safeNext = (next: string | undefined) => (next && next.startsWith('/') && !next.startsWith('//') ? next : '/');

export function SignInPage() {
  const { signedIn } = useSession();
  const location = useLocation();
  const next = safeNext(location.query.next);
  const done = (session: TSession) => {
    signedIn(session);
    location.route(next, true);
  };
  // A sign-in link carries its token in the fragment, which no server sees.
  const [linkToken] = useState(() => new URLSearchParams(window.location.hash.slice(1)).get('token'));
  const redeem = useAction((token: string) => send<TSession>('POST', '/sign-in/link/redeem', { token }));
  useEffect(() => {
    if (!linkToken) return;
    history.replaceState(null, '', window.location.pathname + window.location.search);
    void redeem.run(linkToken).then((session) => session && done(session));
  }, [linkToken]);

  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [linkSent, setLinkSent] = useState(false);
  const signIn = useAction(() => send<TSession>('POST', '/sign-in/password', { email, password }));
  const askLink = useAction(() => send('POST', '/sign-in/link', { email }));

  if (linkToken && !redeem.error) return <Loading />;
  return (
    <div class="sign-in">
      <h1>Sign in</h1>
      {redeem.error && <ErrorNote error={redeem.error} />}
      <form
        class="card stack"
        onSubmit={(event) => {
          event.preventDefault();
          void signIn.run().then((session) => session && done(session));
        }}
      >
        <Field label="E-mail address">
          <input
            type="email"
            name="email"
            autocomplete="username"
            required
            value={email}
            onInput={(e) => setEmail(e.currentTarget.value)}
          />
        </Field>
        <Field label="Password">
          <input
            type="password"
            name="password"
            autocomplete="current-password"
            value={password}
            onInput={(e) => setPassword(e.currentTarget.value)}
          />
        </Field>
        <ErrorNote error={signIn.error} />
        <Button type="submit" variant="primary" busy={signIn.running}>
          Sign in
        </Button>
        <div class="divider">or</div>
        {linkSent ? (
          <Note tone="success">If {email} has an account, a sign-in link is on its way. It works once, for 15 minutes.</Note>
        ) : (
          <Button
            busy={askLink.running}
            onClick={() => {
              if (!email) return document.querySelector<HTMLInputElement>('input[name=email]')?.reportValidity();
              void askLink.run().then((answer) => answer && setLinkSent(true));
            }}
          >
            E-mail me a sign-in link
          </Button>
        )}
        <ErrorNote error={askLink.error} />
      </form>
    </div>
  );
}
