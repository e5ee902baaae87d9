import { useState } from 'preact/hooks';
import { send } from '../api';
import { useAction } from '../hooks';
import { useSession } from '../session';
import { Button, ErrorNote, Field, Note, PageTitle, Section } from '../ui';

/** The signed-in person's own: a password (to sign in without a link), and signing out everywhere. */
export function AccountPage() {
  const { session, signOut, retry } = useSession();
  const hasPassword = session?.account?.hasPassword ?? false;
  const [password, setPassword] = useState('');
  const [currentPassword, setCurrentPassword] = useState('');
  const [saved, setSaved] = useState<number | null>(null);
  const save = useAction(async () => {
    const answer = await send<{ otherSessionsEnded: number }>('PUT', '/account/password', {
      password,
      ...(hasPassword && currentPassword ? { currentPassword } : {}),
    });
    setSaved(answer.otherSessionsEnded);
    setPassword('');
    setCurrentPassword('');
    // The session now says the account has a password: the next change asks for it.
    retry();
  });
  const everywhere = useAction(() => signOut(true));
  return (
    <div class="page narrow">
      <PageTitle>Your account</PageTitle>
      <p class="muted">{session?.account?.email}</p>
      <Section title={hasPassword ? 'Change your password' : 'Set a password'}>
        <form
          class="stack"
          onSubmit={(event) => {
            event.preventDefault();
            void save.run();
          }}
        >
          {hasPassword && (
            <Field
              label="Current password"
              hint="Forgot it? Where sign-in links are e-mailed, sign in with one: for 15 minutes after, a new password needs no current one."
            >
              <input
                type="password"
                autocomplete="current-password"
                value={currentPassword}
                onInput={(e) => setCurrentPassword(e.currentTarget.value)}
              />
            </Field>
          )}
          <Field label="New password" hint="At least 12 characters; a few unrelated words make a good one.">
            <input
              type="password"
              autocomplete="new-password"
              required
              minLength={12}
              maxLength={256}
              value={password}
              onInput={(e) => setPassword(e.currentTarget.value)}
            />
          </Field>
          <ErrorNote error={save.error} />
          {saved !== null && <Note tone="success">Saved. {saved > 0 ? `${saved} other session(s) were signed out.` : ''}</Note>}
          <div class="actions">
            <Button type="submit" variant="primary" busy={save.running}>
              Save password
            </Button>
          </div>
        </form>
      </Section>
      <Section title="Sessions">
        <p>Signed in on a computer you no longer use? End every session, this one included.</p>
        <ErrorNote error={everywhere.error} />
        <Button variant="danger" busy={everywhere.running} onClick={() => void everywhere.run()}>
          Sign out everywhere
        </Button>
      </Section>
    </div>
  );
}
