// Loading state for one read: loading → data or error, with reload() for the retry button of the error state.
import { useCallback, useEffect, useRef, useState } from "react";

export type Load<T> =
  | { state: "loading"; data?: undefined; error?: undefined; reload(): void }
  | { state: "error"; data?: undefined; error: unknown; reload(): void }
  | { state: "ok"; data: T; error?: undefined; reload(): void };

export function useLoad<T>(load: () => Promise<T>, deps: unknown[]): Load<T> {
  const [result, setResult] = useState<{ state: "loading" } | { state: "error"; error: unknown } | { state: "ok"; data: T }>({
    state: "loading",
  });
  const [generation, setGeneration] = useState(0);
  const current = useRef(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the caller names what the load depends on
  useEffect(() => {
    const mine = ++current.current;
    setResult({ state: "loading" });
    load().then(
      (data) => mine === current.current && setResult({ state: "ok", data }),
      (error: unknown) => mine === current.current && setResult({ state: "error", error }),
    );
  }, [...deps, generation]);
  const reload = useCallback(() => setGeneration((g) => g + 1), []);
  return { ...result, reload } as Load<T>;
}
