import express, { type RequestHandler } from "express";
import { ServiceError } from "../errors/service-error.ts";
import { fastPathLength, readJsonBody } from "./json-fast-path.ts";

// U+0000 and unpaired UTF-16 surrogates are valid JSON escapes but no PostgreSQL text or jsonb column can store them.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching NUL is the point
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const UNSTORABLE_MESSAGE = "must not contain NUL characters or unpaired surrogates";
// Deeper bodies are refused before recursive code (validation, fingerprinting, storage) can overflow the stack.
export const MAX_BODY_DEPTH = 64;

const escapePointerToken = (key: string) => key.replace(/~/g, "~0").replace(/\//g, "~1");

/** The first problem in a parsed body (depth first, in document order), as a JSON pointer and message, or null. The
 * walk goes no deeper than MAX_BODY_DEPTH, so its recursion is bounded; the pointer is built only for a problem found. */
function findUnacceptable(body: unknown): { path: string; message: string } | null {
  const keys: string[] = [];
  const visit = (value: unknown, depth: number): string | null => {
    if (typeof value === "string") return UNSTORABLE.test(value) ? UNSTORABLE_MESSAGE : null;
    if (value === null || typeof value !== "object") return null;
    if (depth >= MAX_BODY_DEPTH) return `must not nest deeper than ${MAX_BODY_DEPTH} levels`;
    for (const key of Object.keys(value)) {
      if (UNSTORABLE.test(key)) return `property names ${UNSTORABLE_MESSAGE}`;
      keys.push(key);
      const problem = visit((value as Record<string, unknown>)[key], depth + 1);
      if (problem !== null) return problem;
      keys.pop();
    }
    return null;
  };
  const message = visit(body, 0);
  return message === null ? null : { path: ["/body", ...keys.map(escapePointerToken)].join("/"), message };
}

/** JSON bodies only, size-limited (413 above). Other media types stay unparsed and the validator answers 415.
 * Strings the database cannot store and bodies nested deeper than MAX_BODY_DEPTH are refused with 400. A refusal is
 * recorded in `req.ctx.bodyError` and answered after authentication and the rate limit (body-errors.ts).
 * The common request (application/json in UTF-8, a Content-Length within the limit, no Content-Encoding) is read by
 * json-fast-path.ts: the profile puts express.json's library chain at ≈0.04 ms of CPU per POST; the answers are the same. */
export function jsonBodyParser(limitBytes: number): RequestHandler {
  const parse = express.json({ limit: limitBytes, strict: true, type: ["application/json", "application/*+json"] });
  return function jsonBodyParserMiddleware(req, res, next) {
    const parsed = (error?: unknown) => {
      if (error) {
        req.ctx.bodyError = error;
        return next();
      }
      const problem = findUnacceptable(req.body);
      if (problem !== null)
        req.ctx.bodyError = new ServiceError("VALIDATION_ERROR", `${problem.path} ${problem.message}`, { errors: [problem] });
      next();
    };
    // No body at all (neither header: type-is's hasBody is false), as every GET: body-parser would only set req.body to
    // undefined and go on, after its on-finished and type-is checks (≈0.015 ms of a GET's CPU in the profile).
    if (req.headers["content-length"] === undefined && req.headers["transfer-encoding"] === undefined) {
      if (!("body" in (req as object))) req.body = undefined;
      return next();
    }
    const length = fastPathLength(req, limitBytes);
    if (length === -1) return parse(req, res, parsed);
    // As read.js: req.body exists (undefined) even when the body is refused.
    if (!("body" in (req as object))) req.body = undefined;
    readJsonBody(req, length, (error, body) => {
      if (error === undefined) req.body = body;
      parsed(error);
    });
  };
}
