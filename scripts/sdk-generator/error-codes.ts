// Every error code the spec documents, for the SDK's `ApiErrorCode` union: the v1 `V1Error.code` enum (lower snake
// case) plus the `code` of every 4xx/5xx JSON example (v2 problem codes, upper snake case), sorted and deduplicated.
import { type Doc, deref, examplesOf, type Json, jsonContent, type SpecOperation, schemaRef } from "./spec.ts";

export function v1ErrorCodes(doc: Doc): string[] {
  const schemas = (doc.components?.schemas ?? {}) as Json;
  if (!Object.hasOwn(schemas, "V1Error")) return [];
  const code = (deref(doc, schemaRef("V1Error")).properties as Json | undefined)?.code as Json | undefined;
  return (code?.enum ?? []) as string[];
}

export function documentedErrorCodes(doc: Doc, { raw }: SpecOperation): string[] {
  const codes: string[] = [];
  for (const [status, response] of Object.entries((raw.responses ?? {}) as Json)) {
    if (!/^[45]\d\d$/.test(status)) continue;
    const content = jsonContent(doc, response);
    if (!content) continue;
    for (const ex of examplesOf(doc, content.media)) {
      const code = (ex.value as Json | undefined)?.code;
      if (typeof code === "string") codes.push(code);
    }
  }
  return codes;
}

export function errorCodes(doc: Doc, ops: SpecOperation[]): string[] {
  const codes = new Set(v1ErrorCodes(doc));
  for (const o of ops) for (const code of documentedErrorCodes(doc, o)) codes.add(code);
  return [...codes].sort();
}
