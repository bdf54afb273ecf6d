import { useCallback, useEffect, useState } from 'preact/hooks';

/** State of data loaded from the admin API. */
export interface Loaded<T> {
  data?: T;
  error?: string;
  loading: boolean;
  /** Loads again (e.g. after a change). */
  reload: () => void;
}

/** Runs `load` now and whenever `deps` change; keeps the last data while reloading. */
export function useLoad<T>(load: () => Promise<T>, deps: readonly unknown[]): Loaded<T> {
  const [state, setState] = useState<{ data?: T; error?: string; loading: boolean }>({ loading: true });
  const [tick, setTick] = useState(0);
  // `load` is a new closure on each render: `deps` say when to run it again.
  useEffect(() => {
    let live = true;
    setState((s) => ({ ...s, loading: true }));
    load().then(
      (data) => live && setState({ data, loading: false }),
      (error: Error) => live && setState((s) => ({ data: s.data, error: error.message, loading: false })),
    );
    return () => {
      live = false;
    };
  }, [...deps, tick]);
  const reload = useCallback(() => setTick((t) => t + 1), []);
  return { ...state, reload };
}
