import type { RequestHandler } from "express";
import * as OpenApiValidator from "express-openapi-validator";
import { ServiceError } from "../errors/service-error.ts";
import { isIsoCountry, isIsoRegion } from "../lib/countries/iso-countries.ts";
import type { OpenApiDocument } from "../spec/load-spec.ts";
import { validatorDocument } from "../spec/validator-document.ts";

const DECIMAL_INTEGER = /^-?[0-9]{1,16}$/;

/** The validator coerces query strings with JavaScript's Number(), which reads `Infinity`, `1e999` or `0x10` as
 * numbers — `Infinity` even passes `maximum` checks and reached the database as a page size (500). Integer query
 * parameters must be plain decimal integers; the validator then checks their bounds. */
function strictIntegerQuery(): RequestHandler {
  return function strictIntegerQueryMiddleware(req, _res, next) {
    for (const name of req.ctx.operation?.integerQuery ?? []) {
      const raw = req.query[name];
      if (raw !== undefined && (typeof raw !== "string" || !DECIMAL_INTEGER.test(raw))) {
        const problem = { path: `/query/${name}`, message: "must be a decimal integer" };
        return next(new ServiceError("VALIDATION_ERROR", `${problem.path} ${problem.message}`, { errors: [problem] }));
      }
    }
    next();
  };
}

/** The validator's own middleware, by the names it gives them (express-openapi-validator 5.6, openapi.validator.js). */
const MATCH_STEPS = new Set(["pathParamsMiddleware", "metadataMiddleware"]);
const VALIDATE_STEPS = new Set(["requestMiddleware", "responseMiddleware"]);

export interface OpenapiValidation {
  /** The validator's own route match (`req.openapi`, which its request validation reads). operationLookup runs it on
   * the first request of each operation only and reuses its record afterwards. */
  match: RequestHandler[];
  /** Validates the request against that operation (and the response, when `validateResponses`, in tests). */
  validate: RequestHandler[];
}

/** express-openapi-validator over the bundled spec, split so its route match serves the whole chain. Routing errors
 * (404/405), security and scopes are our own middleware's; the validator checks shapes. */
export function openapiValidation(spec: OpenApiDocument, validateResponses: boolean): OpenapiValidation {
  // The validator compiles an operation's schemas on its first request (0.4–0.8 s of CPU each on the 2-core machine):
  // apps made in one process from the same spec share one validator, so each operation is compiled once per process
  // (tests start many apps; a second instance in one process is no different). Its middleware keeps no app state.
  const key = `${validateResponses}:${JSON.stringify(spec)}`;
  const known = validators.get(key);
  if (known) return known;
  const made = makeValidation(spec, validateResponses);
  validators.set(key, made);
  return made;
}

const validators = new Map<string, OpenapiValidation>();

function makeValidation(spec: OpenApiDocument, validateResponses: boolean): OpenapiValidation {
  const { match, validate } = validatorSteps(spec, validateResponses);
  return { match, validate: [strictIntegerQuery(), ...validate] };
}

/** express-openapi-validator's own steps over the bundled spec, configured as the server runs it: its route match, and
 * its request (and, when `validateResponses`, response) validation. No step of ours; bench/stack-floor.ts runs these
 * alone. */
export function validatorSteps(spec: OpenApiDocument, validateResponses: boolean): OpenapiValidation {
  const steps = OpenApiValidator.middleware({
    // The validator mutates the document it is given: a copy, without what cannot change a validation (start time).
    apiSpec: validatorDocument(spec, validateResponses) as never,
    validateRequests: { allowUnknownQueryParameters: false, coerceTypes: false },
    validateResponses: validateResponses ? { removeAdditional: false } : false,
    validateSecurity: false,
    validateApiSpec: false,
    ignoreUndocumented: true,
    validateFormats: true,
    // The spec's country formats (openapi/components/schemas/common.yaml): assigned ISO 3166 codes only.
    formats: {
      "iso3166-alpha2": { type: "string", validate: isIsoCountry },
      "iso3166-region": { type: "string", validate: isIsoRegion },
    },
  }) as unknown as RequestHandler[];
  const named = (names: Set<string>) => steps.filter((step) => names.has(step.name));
  const match = named(MATCH_STEPS);
  const validate = named(VALIDATE_STEPS);
  // A validator upgrade that renames its steps must fail at start, not silently skip validation.
  if (match.length !== MATCH_STEPS.size || validate.length !== (validateResponses ? 2 : 1)) {
    throw new Error(`express-openapi-validator's middleware changed: ${steps.map((s) => s.name).join(", ")}`);
  }
  return { match, validate };
}
