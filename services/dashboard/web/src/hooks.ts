import { useCallback, useEffect, useState } from 'preact/hooks';
import type { ApiError } from './api';

export interface Loaded<T> {
  data?: T;
  error?: ApiError;
  loading: boolean;
  reload: () => void;
}

/** Runs `load` when `deps` change (and on `reload`), keeping the last answer while a new one comes. */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[]): Loaded<T> {
  const [state, setState] = useState<{ data?: T; error?: ApiError; loading: boolean }>({ loading: true });
  const [round, setRound] = useState(0);
  useEffect(() => {
    let current = true;
    setState((previous) => ({ ...previous, loading: true }));
    load().then(
      (data) => current && setState({ data, loading: false }),
      (error: ApiError) => current && setState((previous) => ({ data: previous.data, error, loading: false })),
    );
    return () => {
      current = false;
    };
  }, [...deps, round]);
  return { ...state, reload: useCallback(() => setRound((n) => n + 1), []) };
}

/** An action's state: running, and its error in words, for a button and the message beside it. */
export function useAction<A extends unknown[], R>(action: (...args: A) => Promise<R>) {
  const [running, setRunning] = useState(false);
  const [error, setError] = useState<ApiError | undefined>();
  const run = async (...args: A): Promise<R | undefined> => {
    setRunning(true);
    setError(undefined);
    try {
      return await action(...args);
    } catch (err) {
      setError(err as ApiError);
      return undefined;
    } finally {
      setRunning(false);
    }
  };
  return { run, running, error, clearError: () => setError(undefined) };
}
