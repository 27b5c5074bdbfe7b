// Validates `input` against an operation's JSON Schema; validators are compiled once per operation.
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import type { FieldError } from "../errors/service-error.ts";
import type { ProviderOperationDef } from "./provider-adapter.ts";

const ajv = new Ajv2020({ allErrors: true, strict: false });
const compiled = new WeakMap<ProviderOperationDef, ValidateFunction>();

export function validateOperationInput(def: ProviderOperationDef, input: unknown): FieldError[] {
  let validate = compiled.get(def);
  if (!validate) {
    validate = ajv.compile(def.inputSchema);
    compiled.set(def, validate);
  }
  if (validate(input)) return [];
  return (validate.errors ?? []).map((e) => ({ path: `/body/input${e.instancePath}`, message: e.message ?? "is invalid" }));
}
