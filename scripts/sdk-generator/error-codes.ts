// Every error code the spec documents, for the SDK's `ApiErrorCode` union: the v1 `V1Error.code` enum (lower snake
// case) plus every code an operation lists in its `x-error-codes` (v2 problem codes, upper snake case; the v1 and admin
// operations' lower-case codes), sorted and deduplicated.
import { errorCodesOf } from "../../server/spec/error-codes-of.ts";
import { type Doc, deref, type Json, type SpecOperation, schemaRef } from "./spec.ts";

export function v1ErrorCodes(doc: Doc): string[] {
  const schemas = (doc.components?.schemas ?? {}) as Json;
  if (!Object.hasOwn(schemas, "V1Error")) return [];
  const code = (deref(doc, schemaRef("V1Error")).properties as Json | undefined)?.code as Json | undefined;
  return (code?.enum ?? []) as string[];
}

export function documentedErrorCodes({ raw }: SpecOperation): string[] {
  return Object.values(errorCodesOf(raw)).flat();
}

export function errorCodes(doc: Doc, ops: SpecOperation[]): string[] {
  const codes = new Set(v1ErrorCodes(doc));
  for (const o of ops) for (const code of documentedErrorCodes(o)) codes.add(code);
  return [...codes].sort();
}
