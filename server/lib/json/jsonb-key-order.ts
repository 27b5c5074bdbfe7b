// PostgreSQL's jsonb keeps an object's keys in its own order — shorter keys first, keys of one length in byte order —
// so an object read back from a jsonb column is not in the order it was written. An answer built from the values a
// write sent (without reading the row back) orders its objects the same way, so it is byte for byte what a later GET
// of that row answers.

const byJsonbOrder = (a: string, b: string) => {
  if (a.length !== b.length) return a.length - b.length;
  return Buffer.compare(Buffer.from(a), Buffer.from(b));
};

/** `value` with the keys of every object in jsonb's order (arrays keep their order). */
export function inJsonbKeyOrder<T>(value: T): T {
  if (Array.isArray(value)) return value.map(inJsonbKeyOrder) as T;
  if (value === null || typeof value !== "object") return value;
  const source = value as Record<string, unknown>;
  const ordered: Record<string, unknown> = {};
  for (const key of Object.keys(source).sort(byJsonbOrder)) ordered[key] = inJsonbKeyOrder(source[key]);
  return ordered as T;
}
