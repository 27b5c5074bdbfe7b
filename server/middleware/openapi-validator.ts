import type { RequestHandler } from "express";
import * as OpenApiValidator from "express-openapi-validator";
import type { OpenApiDocument } from "../spec/load-spec.ts";

/** Validates every request against the bundled spec (and every response when `validateResponses`, in tests).
 * Routing, 404/405 and security are handled by our own middleware, so the validator only checks shapes. */
export function openapiValidator(spec: OpenApiDocument, validateResponses: boolean): RequestHandler[] {
  return OpenApiValidator.middleware({
    // The validator mutates the document it is given.
    apiSpec: structuredClone(spec) as never,
    validateRequests: { allowUnknownQueryParameters: false, coerceTypes: false },
    validateResponses: validateResponses ? { removeAdditional: false } : false,
    validateSecurity: false,
    validateApiSpec: false,
    ignoreUndocumented: true,
    validateFormats: true,
  }) as unknown as RequestHandler[];
}
