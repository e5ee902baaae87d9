import { createContext, type ComponentChildren } from 'preact';
import { useContext, useEffect, useState } from 'preact/hooks';
import type { TSession } from '@partner/contracts/console';
import { ApiError, get, send, useCsrfToken } from './api';

interface SessionState {
  /** Undefined while the first answer is awaited; null when nobody is signed in. */
  session: TSession | null | undefined;
  signedIn: (session: TSession) => void;
  signOut: (everywhere?: boolean) => Promise<void>;
  refresh: () => Promise<void>;
}

const SessionContext = createContext<SessionState | null>(null);

export function SessionProvider(props: { children: ComponentChildren }) {
  const [session, setSession] = useState<TSession | null | undefined>(undefined);
  const adopt = (next: TSession | null) => {
    useCsrfToken(next?.csrfToken ?? null);
    setSession(next);
  };
  const refresh = async () => {
    try {
      adopt(await get<TSession>('/session'));
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) adopt(null);
      else throw err;
    }
  };
  useEffect(() => {
    void refresh();
  }, []);
  const signOut = async (everywhere = false) => {
    await (everywhere ? send('POST', '/session/sign-out-everywhere') : send('DELETE', '/session')).catch(() => undefined);
    adopt(null);
  };
  return <SessionContext.Provider value={{ session, signedIn: adopt, signOut, refresh }}>{props.children}</SessionContext.Provider>;
}

export function useSession(): SessionState {
  const state = useContext(SessionContext);
  if (!state) throw new Error('useSession outside SessionProvider');
  return state;
}
