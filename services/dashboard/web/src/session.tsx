import { createContext, type ComponentChildren } from 'preact';
import { useContext, useEffect, useState } from 'preact/hooks';
import type { TSession } from '@partner/contracts/console';
import { ApiError, get, send, setCsrfToken } from './api';

interface SessionState {
  /** Undefined while the first answer is awaited; null when nobody is signed in. */
  session: TSession | null | undefined;
  /** Why the session could not be read (the backend down): shown with a way to try again. */
  failure: ApiError | undefined;
  retry: () => void;
  signedIn: (session: TSession) => void;
  signOut: (everywhere?: boolean) => Promise<void>;
}

const SessionContext = createContext<SessionState | null>(null);

export function SessionProvider(props: { children: ComponentChildren }) {
  const [session, setSession] = useState<TSession | null | undefined>(undefined);
  const [failure, setFailure] = useState<ApiError | undefined>();
  const [round, setRound] = useState(0);
  const adopt = (next: TSession | null) => {
    setCsrfToken(next?.csrfToken ?? null);
    setSession(next);
  };
  useEffect(() => {
    setFailure(undefined);
    get<TSession | null>('/session').then(adopt, setFailure);
  }, [round]);
  // Signed out here only once the server has ended the session (or it had already ended): a sign-out
  // that failed must say so, not leave a working session behind a sign-in page.
  const signOut = async (everywhere = false) => {
    try {
      await (everywhere ? send('POST', '/session/sign-out-everywhere') : send('DELETE', '/session'));
    } catch (err) {
      if (!(err instanceof ApiError && err.status === 401)) throw err;
    }
    adopt(null);
  };
  const state = { session, failure, retry: () => setRound((n) => n + 1), signedIn: adopt, signOut };
  return <SessionContext.Provider value={state}>{props.children}</SessionContext.Provider>;
}

export function useSession(): SessionState {
  const state = useContext(SessionContext);
  if (!state) throw new Error('useSession outside SessionProvider');
  return state;
}
