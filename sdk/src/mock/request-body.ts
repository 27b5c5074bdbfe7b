// A request body as the server's body parser reads it (server/middleware/body-parser.ts), before any routing: only
// JSON media types are parsed (another type stays unread and the validator answers 415); strict JSON, an object or an
// array at the top; an empty JSON body is `{}`. Then strings no database can store and bodies nested deeper than 64
// levels are refused. Shared by the msw handlers and the standalone server so both read bodies alike.

export interface ParsedBody {
  /** Parsed JSON; undefined when there is none (or it is not JSON). */
  body: unknown;
  /** A JSON body that does not parse (→ 400). */
  invalidJson: boolean;
}

const JSON_MEDIA = /^application\/(?:[\w.+-]+\+)?json$/i;

/** Whether the server's body parser reads a body of this Content-Type. */
export function isJsonMediaType(contentType: string | undefined): boolean {
  return JSON_MEDIA.test(contentType?.split(";")[0]?.trim() ?? "");
}

export function parseRequestBody(text: string, contentType?: string | null): ParsedBody {
  // Callers before content types were considered passed none: treat any non-empty text as JSON then.
  if (contentType !== undefined && !isJsonMediaType(contentType ?? undefined)) return { body: undefined, invalidJson: false };
  // Only a body with no bytes is empty; whitespace alone is refused like any other non-JSON text (strict mode).
  if (text === "") return { body: contentType === undefined ? undefined : {}, invalidJson: false };
  // Strict mode: an object or an array at the top.
  if (!/^[\s]*[[{]/.test(text)) return { body: undefined, invalidJson: true };
  try {
    return { body: JSON.parse(text), invalidJson: false };
  } catch {
    return { body: undefined, invalidJson: true };
  }
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: matching NUL is the point
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const UNSTORABLE_MESSAGE = "must not contain NUL characters or unpaired surrogates";
const MAX_BODY_DEPTH = 64;

/** The first value the server refuses to store (NUL, an unpaired surrogate, nesting deeper than 64), or null. */
export function findUnacceptable(body: unknown): { path: string; message: string } | null {
  const stack: Array<[unknown, string, number]> = [[body, "/body", 0]];
  while (stack.length > 0) {
    const [value, pointer, depth] = stack.pop() as [unknown, string, number];
    if (typeof value === "string") {
      if (UNSTORABLE.test(value)) return { path: pointer, message: UNSTORABLE_MESSAGE };
    } else if (value !== null && typeof value === "object") {
      if (depth >= MAX_BODY_DEPTH) return { path: pointer, message: `must not nest deeper than ${MAX_BODY_DEPTH} levels` };
      for (const [key, item] of Object.entries(value)) {
        if (UNSTORABLE.test(key)) return { path: pointer, message: `property names ${UNSTORABLE_MESSAGE}` };
        stack.push([item, `${pointer}/${key.replace(/~/g, "~0").replace(/\//g, "~1")}`, depth + 1]);
      }
    }
  }
  return null;
}
