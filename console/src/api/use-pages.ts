// A list that streams its pages: the first page on mount, the next when the sentinel below the list scrolls into view
// (cursor `startingAfter` from the previous page's `nextCursor`).
import { useCallback, useEffect, useRef, useState } from "react";

export interface Page<T> {
  items: T[];
  next: string | null;
}

export interface Pages<T> {
  items: T[];
  state: "loading" | "error" | "ok";
  error?: unknown;
  hasMore: boolean;
  retry(): void;
  reload(): void;
  sentinel: (element: HTMLElement | null) => void;
}

export function usePages<T>(loadPage: (cursor: string | null) => Promise<Page<T>>, deps: unknown[]): Pages<T> {
  const [items, setItems] = useState<T[]>([]);
  const [state, setState] = useState<"loading" | "error" | "ok">("loading");
  const [error, setError] = useState<unknown>();
  const [next, setNext] = useState<string | null>(null);
  const [hasMore, setHasMore] = useState(false);
  const [generation, setGeneration] = useState(0);
  const run = useRef(0);
  const busy = useRef(false);

  const fetchPage = useCallback(
    (cursor: string | null, mine: number) => {
      busy.current = true;
      setState("loading");
      loadPage(cursor).then(
        (page) => {
          if (mine !== run.current) return;
          busy.current = false;
          setItems((old) => (cursor ? [...old, ...page.items] : page.items));
          setNext(page.next);
          setHasMore(page.next !== null);
          setState("ok");
        },
        (err: unknown) => {
          if (mine !== run.current) return;
          busy.current = false;
          setError(err);
          setState("error");
        },
      );
    },
    // biome-ignore lint/correctness/useExhaustiveDependencies: the caller names what the pages depend on
    deps,
  );

  // biome-ignore lint/correctness/useExhaustiveDependencies: restart on the caller's deps and on reload()
  useEffect(() => {
    const mine = ++run.current;
    setItems([]);
    setNext(null);
    setHasMore(false);
    fetchPage(null, mine);
  }, [fetchPage, generation]);

  const observer = useRef<IntersectionObserver | null>(null);
  const more = useRef(() => {});
  more.current = () => {
    if (!busy.current && next && state === "ok") fetchPage(next, run.current);
  };
  const sentinel = useCallback((element: HTMLElement | null) => {
    observer.current?.disconnect();
    if (!element) return;
    observer.current = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) more.current();
    });
    observer.current.observe(element);
  }, []);

  return {
    items,
    state,
    error,
    hasMore,
    retry: () => fetchPage(next, run.current),
    reload: () => setGeneration((g) => g + 1),
    sentinel,
  };
}
