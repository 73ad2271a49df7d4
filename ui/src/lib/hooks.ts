// Small hooks shared by the pages.

import { useCallback, useEffect, useRef, useState } from 'react';
import { describeFailure } from '../api/client.ts';

export interface Loaded<T> {
  data: T | undefined;
  error: string | undefined;
  loading: boolean;
  reload: () => void;
  setData: (update: (current: T | undefined) => T | undefined) => void;
}

/** Loads with `load` whenever `deps` change; a newer load wins over an older one still in flight. */
export function useLoad<T>(load: (signal: AbortSignal) => Promise<T>, deps: readonly unknown[]): Loaded<T> {
  const [data, setDataState] = useState<T>();
  const [error, setError] = useState<string>();
  const [loading, setLoading] = useState(true);
  const [generation, setGeneration] = useState(0);
  const loadRef = useRef(load);
  loadRef.current = load;
  // biome-ignore lint/correctness/useExhaustiveDependencies: the caller's deps decide when to load again, and generation is reload()'s trigger
  useEffect(() => {
    const controller = new AbortController();
    setLoading(true);
    loadRef.current(controller.signal).then(
      (value) => {
        if (controller.signal.aborted) return;
        setDataState(value);
        setError(undefined);
        setLoading(false);
      },
      (failure: unknown) => {
        if (controller.signal.aborted) return;
        setError(describeFailure(failure));
        setLoading(false);
      },
    );
    return () => controller.abort();
  }, [...deps, generation]);
  const reload = useCallback(() => setGeneration((value) => value + 1), []);
  const setData = useCallback((update: (current: T | undefined) => T | undefined) => setDataState(update), []);
  return { data, error, loading, reload, setData };
}

/** Calls `callback` every `ms` while the page is visible. */
export function useInterval(callback: () => void, ms: number | null): void {
  const saved = useRef(callback);
  saved.current = callback;
  useEffect(() => {
    if (ms === null) return;
    const id = setInterval(() => {
      if (document.visibilityState === 'visible') saved.current();
    }, ms);
    return () => clearInterval(id);
  }, [ms]);
}

/** Runs an action once at a time, keeping its failure as a sentence for the page to show. */
export function useAction<A extends unknown[], R>(action: (...args: A) => Promise<R>) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const run = useCallback(
    async (...args: A): Promise<R | undefined> => {
      setBusy(true);
      setError(undefined);
      try {
        return await action(...args);
      } catch (failure) {
        setError(describeFailure(failure));
        return undefined;
      } finally {
        setBusy(false);
      }
    },
    [action],
  );
  return { run, busy, error, setError };
}

/**
 * Cursor paging over a list endpoint: a stack of the cursors of the pages visited, so Previous
 * can go back without the server paging backwards.
 */
export type CursorPages = ReturnType<typeof useCursorPages>;

export function useCursorPages() {
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  return {
    cursor: cursors[cursors.length - 1],
    /** Zero-based number of the page shown. */
    page: cursors.length - 1,
    reset: () => setCursors([undefined]),
    previous: () => setCursors((list) => (list.length > 1 ? list.slice(0, -1) : list)),
    next: (nextCursor: string | null | undefined) => setCursors((list) => [...list, nextCursor ?? undefined]),
  };
}
