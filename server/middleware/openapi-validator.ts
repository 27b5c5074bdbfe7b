import type { RequestHandler } from "express";
import * as OpenApiValidator from "express-openapi-validator";
import { ServiceError } from "../errors/service-error.ts";
import type { OpenApiDocument } from "../spec/load-spec.ts";
import { memoizeRouteRegexps } from "./memoize-route-regexps.ts";

type Json = Record<string, unknown>;
const DECIMAL_INTEGER = /^-?[0-9]{1,16}$/;

/** `METHOD /path/template` → names of the operation's integer query parameters. */
function integerQueryParameters(spec: OpenApiDocument): Map<string, string[]> {
  const resolve = (node: Json): Json => {
    let value = node;
    while (typeof value?.$ref === "string") {
      let target: unknown = spec;
      for (const part of (value.$ref as string).slice(2).split("/")) target = (target as Json)[part];
      value = target as Json;
    }
    return value;
  };
  const result = new Map<string, string[]>();
  for (const [template, item] of Object.entries(spec.paths as Record<string, Json>)) {
    for (const [method, op] of Object.entries(item)) {
      if (!op || typeof op !== "object" || !("responses" in (op as Json))) continue;
      const parameters = [...((item.parameters ?? []) as Json[]), ...(((op as Json).parameters ?? []) as Json[])].map(resolve);
      const names = parameters
        .filter((p) => p.in === "query" && resolve((p.schema ?? {}) as Json).type === "integer")
        .map((p) => String(p.name));
      if (names.length > 0) result.set(`${method.toUpperCase()} ${template}`, names);
    }
  }
  return result;
}

/** The validator coerces query strings with JavaScript's Number(), which reads `Infinity`, `1e999` or `0x10` as
 * numbers — `Infinity` even passes `maximum` checks and reached the database as a page size (500). Integer query
 * parameters must be plain decimal integers; the validator then checks their bounds. */
function strictIntegerQuery(spec: OpenApiDocument): RequestHandler {
  const byOperation = integerQueryParameters(spec);
  return function strictIntegerQueryMiddleware(req, _res, next) {
    const operation = req.ctx.operation;
    const names = operation ? byOperation.get(`${operation.method} ${operation.pathTemplate}`) : undefined;
    for (const name of names ?? []) {
      const raw = (req.query as Record<string, unknown>)[name];
      if (raw !== undefined && (typeof raw !== "string" || !DECIMAL_INTEGER.test(raw))) {
        const problem = { path: `/query/${name}`, message: "must be a decimal integer" };
        return next(new ServiceError("VALIDATION_ERROR", `${problem.path} ${problem.message}`, { errors: [problem] }));
      }
    }
    next();
  };
}

/** Validates every request against the bundled spec (and every response when `validateResponses`, in tests).
 * Routing, 404/405 and security are handled by our own middleware, so the validator only checks shapes. */
export function openapiValidator(spec: OpenApiDocument, validateResponses: boolean): RequestHandler[] {
  memoizeRouteRegexps();
  return [
    strictIntegerQuery(spec),
    ...(OpenApiValidator.middleware({
      // The validator mutates the document it is given.
      apiSpec: structuredClone(spec) as never,
      validateRequests: { allowUnknownQueryParameters: false, coerceTypes: false },
      validateResponses: validateResponses ? { removeAdditional: false } : false,
      validateSecurity: false,
      validateApiSpec: false,
      ignoreUndocumented: true,
      validateFormats: true,
    }) as unknown as RequestHandler[]),
  ];
}
