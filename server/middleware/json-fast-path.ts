// The common JSON request body read without body-parser's library chain (type-is, media-typer, content-type, raw-body,
// iconv-lite, on-finished, http-errors), which the profile puts at ≈0.04 ms of CPU per POST (issue 39). Only a request
// whose answer body-parser 2 (express.json, strict) is certain to give the same way takes this path; everything else —
// chunked, compressed, another charset or media type, no or a non-decimal Content-Length, over the limit — goes to
// express.json unchanged. Each step below names the body-parser / raw-body source it mirrors
// (node_modules/body-parser/lib/read.js and types/json.js, node_modules/raw-body/index.js), and the errors carry the
// same status, expose and type fields, which server/errors/to-service-error.ts maps to our codes.
import { AsyncResource } from "node:async_hooks";
import type { IncomingMessage } from "node:http";

const UTF8_JSON = "application/json; charset=utf-8";
const DECIMAL = /^[0-9]+$/;

/** The body's byte count when this reader answers the request exactly as body-parser would, else -1. */
export function fastPathLength(req: IncomingMessage, limit: number): number {
  const { headers } = req;
  // The two media types that mean application/json in UTF-8, body-parser's default and only valid charset family
  // here; the charset value is compared case-insensitively, as body-parser lowercases it.
  const type = headers["content-type"];
  if (type !== "application/json" && !(type?.length === UTF8_JSON.length && type.toLowerCase() === UTF8_JSON)) return -1;
  // A Content-Length makes type-is's hasBody true; chunked bodies are left to raw-body.
  const length = headers["content-length"];
  if (length === undefined || headers["transfer-encoding"] !== undefined || !DECIMAL.test(length)) return -1;
  // read.js: a missing or empty Content-Encoding is identity (compared lowercased); anything else is inflated there.
  const encoding = headers["content-encoding"];
  if (encoding !== undefined && encoding !== "" && encoding.toLowerCase() !== "identity") return -1;
  // body-parser skips a request on-finished deems finished and raw-body refuses an unreadable or decoding stream:
  // such requests keep those answers by going to express.json.
  if ((req as { upgrade?: boolean }).upgrade || !req.readable || req.readableEncoding !== null || !req.socket?.readable) return -1;
  // raw-body answers 413 for a declared length over the limit before reading; express.json keeps that answer.
  const bytes = Number(length);
  return bytes <= limit ? bytes : -1;
}

class BadRequestError extends Error {
  override name = "BadRequestError";
  readonly status = 400;
  readonly statusCode = 400;
  readonly expose = true;
}

/** http-errors' createError(400, error, props) for an error that is not an HttpError (read.js after a failed parse or
 * stream error): its own status kept if it has one, expose below 500. */
function asClientError(thrown: unknown, props: Record<string, unknown>): unknown {
  if (!(thrown instanceof Error)) return thrown;
  const own = thrown as Error & { status?: unknown; statusCode?: unknown };
  let status = (own.status || own.statusCode || 400) as number;
  if (typeof status !== "number" || status < 400 || status >= 600) status = 500;
  return Object.assign(thrown, { expose: status < 500, status, statusCode: status }, props);
}

const FIRST_NON_WHITESPACE = /^[ \t\n\r]*([^ \t\n\r]|$)/;

/** json.js createStrictSyntaxError: the message JSON.parse would give at the first character that is not `{` or `[`. */
function strictSyntaxError(text: string, char: string | undefined): Error {
  const index = char === undefined ? -1 : text.indexOf(char);
  const partial = index === -1 ? "" : text.substring(0, index) + "#".repeat(text.length - index);
  try {
    JSON.parse(partial);
    throw new SyntaxError("strict violation");
  } catch (thrown) {
    const error = thrown as Error;
    const message = error.message.replace(/#+/g, (placeholder) => text.substring(index, index + placeholder.length));
    error.stack = error.stack?.replace(error.message, message);
    error.message = message;
    return error;
  }
}

/** json.js with strict: an empty body is {}, the first non-whitespace character must open an object or array. */
function parseStrict(text: string): unknown {
  if (text.length === 0) return {};
  if (text[0] !== "{" && text[0] !== "[") {
    const first = FIRST_NON_WHITESPACE.exec(text)?.[1] || undefined;
    if (first !== "{" && first !== "[") throw strictSyntaxError(text, first);
  }
  return JSON.parse(text);
}

/** Reads `length` bytes of JSON from the request (fastPathLength said it may) and calls back with the parsed body or
 * the error body-parser would have passed on. Node's HTTP parser delivers no more than Content-Length bytes, so the
 * buffer is bounded by the limit fastPathLength checked. */
export function readJsonBody(req: IncomingMessage, length: number, callback: (error: unknown, body?: unknown) => void): void {
  // raw-body calls back in the middleware's async context, not the socket's; so does this reader.
  const scope = new AsyncResource("jsonBodyParser");
  const chunks: Buffer[] = [];
  let received = 0;
  const finish = (error: unknown, body?: unknown) => {
    req.removeListener("data", onData);
    req.removeListener("end", onEnd);
    req.removeListener("error", onError);
    req.removeListener("aborted", onAborted);
    scope.runInAsyncScope(callback, null, error, body);
  };
  const onData = (chunk: Buffer) => {
    received += chunk.length;
    chunks.push(chunk);
  };
  const onAborted = () =>
    finish(
      Object.assign(new BadRequestError("request aborted"), {
        code: "ECONNABORTED",
        expected: length,
        length,
        received,
        type: "request.aborted",
      }),
    );
  const onError = (error: unknown) => finish(asClientError(error, {}));
  const onEnd = () => {
    if (received !== length)
      return finish(
        Object.assign(new BadRequestError("request size did not match content length"), {
          expected: length,
          length,
          received,
          type: "request.size.invalid",
        }),
      );
    // raw-body decodes with iconv-lite's UTF-8 decoder, which drops a leading byte order mark.
    let text = (chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, received)).toString("utf8");
    if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    let body: unknown;
    try {
      body = parseStrict(text);
    } catch (thrown) {
      const type = (thrown as { type?: unknown })?.type || "entity.parse.failed";
      return finish(asClientError(thrown, { body: text, type }));
    }
    finish(undefined, body);
  };
  req.on("aborted", onAborted);
  req.on("data", onData);
  req.on("end", onEnd);
  req.on("error", onError);
}
