// JSON Schema validation for the mock, configured as the server's request validator configures ajv
// (express-openapi-validator 5.6 over ajv 8, OpenAPI 3.1 → the 2020-12 dialect): not strict, strict numbers, formats in
// ajv-formats' "fast" mode plus the spec's ISO 3166 formats, defaults applied, first error only. So a request the server
// refuses, the mock refuses, with the same messages.
import { Ajv2020, type ErrorObject, type ValidateFunction } from "ajv/dist/2020.js";
import { fastFormats } from "ajv-formats/dist/formats.js";
import type { MockJsonSchema } from "./types.ts";

export type { ErrorObject, ValidateFunction };

/** A country (`US`) or a subdivision of one (`US-NY`). */
const REGION = /^([A-Z]{2})(?:-[A-Z0-9]{1,3})?$/;

/** An ajv instance as the server's validator builds it; `coerce` for parameters (strings become numbers), not bodies. */
export function createAjv(options: { coerce: boolean; countries: readonly string[]; allErrors?: boolean }): Ajv2020 {
  const ajv = new Ajv2020({
    strict: false,
    strictNumbers: true,
    strictTuples: true,
    allowUnionTypes: false,
    validateSchema: false,
    coerceTypes: options.coerce,
    useDefaults: true,
    allErrors: options.allErrors ?? false,
  });
  ajv.addFormat("media-range", true);
  for (const [name, format] of Object.entries(fastFormats)) ajv.addFormat(name, format);
  const countries = new Set(options.countries);
  ajv.addFormat("iso3166-alpha2", { type: "string", validate: (code: string) => countries.has(code) });
  ajv.addFormat("iso3166-region", {
    type: "string",
    validate: (code: string) => {
      const match = REGION.exec(code);
      return match !== null && countries.has(match[1] as string);
    },
  });
  return ajv;
}

/** Whether values are valid for (self-contained) schemas, each compiled once: the mock copies a request value into a
 * response only when it is valid for the response property's schema, so a copied value never makes a response invalid. */
export class SchemaCheck {
  private readonly compiled = new WeakMap<MockJsonSchema, ValidateFunction>();

  private readonly ajv: Ajv2020;

  constructor(ajv: Ajv2020) {
    this.ajv = ajv;
  }

  conforms(schema: MockJsonSchema, value: unknown): boolean {
    let validate = this.compiled.get(schema);
    if (!validate) {
      try {
        validate = this.ajv.compile(schema);
      } catch {
        // A schema that does not compile on its own (a reference left unresolved): copy nothing rather than guess.
        validate = Object.assign(() => false, { errors: null }) as unknown as ValidateFunction;
      }
      this.compiled.set(schema, validate);
    }
    // The check must not change the value it is asked about (useDefaults would fill defaults in).
    return validate(structuredClone(value));
  }
}
