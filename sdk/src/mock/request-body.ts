/** A request body as the engine takes it: JSON parsed, none when empty, and `invalidJson` when it does not parse (the
 * engine answers that with 400). Shared by the msw handlers and the standalone server so both read bodies alike. */
export function parseRequestBody(text: string): { body: unknown; invalidJson: boolean } {
  if (text === "") return { body: undefined, invalidJson: false };
  try {
    return { body: JSON.parse(text), invalidJson: false };
  } catch {
    return { body: undefined, invalidJson: true };
  }
}
