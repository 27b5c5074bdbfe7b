// The partner mock's event catalogue (mockData.webhooks): per event type of the spec's top-level `webhooks`, the
// component schema of its `data` and one plausible `data` value, so `emitMockEvent` can send any event type.
// The value is, in order of preference: the event's own documented example, a documented success example of an
// operation returning the same schema (preferring one in the status the event leaves the resource in, see statusAfter),
// the schema's `example`, or a value built from the schema (required fields only).
import type { ExampleValues } from "./mock-data.ts";
import { type Doc, deref, examplesOf, type Json, jsonContent, objectProperties, schemaName, successSchema } from "./spec.ts";

export interface MockWebhookJson {
  type: string;
  /** The component schema `data` references (e.g. `BankTransferStatusResponse`), if it names one. */
  dataSchema?: string;
  /** Index of the sample `data` in the mock data's values. */
  data: number;
}

/** The spec's event types with their `post` request body media (3.1 `webhooks`; empty before the spec has any). */
export function webhookEntries(doc: Doc): Array<{ type: string; summary: string; media: Json | undefined }> {
  const webhooks = (doc.webhooks ?? {}) as Record<string, Json>;
  return Object.entries(webhooks).map(([type, item]) => {
    const post = deref(doc, deref(doc, item).post);
    return { type, summary: typeof post.summary === "string" ? post.summary : "", media: jsonContent(doc, post.requestBody)?.media };
  });
}

/** A minimal value valid for a schema: const/enum/default/example first, then required fields by type. */
export function sampleOf(doc: Doc, schema: unknown, depth = 0): unknown {
  const s = deref(doc, schema);
  if (s.const !== undefined) return s.const;
  if (s.example !== undefined) return s.example;
  if (Array.isArray(s.examples) && s.examples.length > 0) return s.examples[0];
  if (s.default !== undefined) return s.default;
  if (Array.isArray(s.enum) && s.enum.length > 0) return s.enum.find((v) => v !== null) ?? null;
  for (const key of ["oneOf", "anyOf"]) {
    const branches = (s[key] ?? []) as unknown[];
    const first = branches.find((b) => deref(doc, b).type !== "null") ?? branches[0];
    if (first !== undefined) return sampleOf(doc, first, depth + 1);
  }
  const type = Array.isArray(s.type) ? (s.type as string[]).find((t) => t !== "null") : (s.type as string | undefined);
  if (type === "object" || s.properties || s.allOf) {
    if (depth > 8) return {};
    const { properties, required } = objectProperties(doc, s);
    const out: Json = {};
    for (const key of required) if (key in properties) out[key] = sampleOf(doc, properties[key], depth + 1);
    return out;
  }
  if (type === "array") {
    const min = typeof s.minItems === "number" ? s.minItems : 0;
    return Array.from({ length: min }, () => sampleOf(doc, s.items, depth + 1));
  }
  if (type === "integer" || type === "number") return typeof s.minimum === "number" ? s.minimum : 0;
  if (type === "boolean") return false;
  if (type === "null") return null;
  if (s.format === "date-time") return "2026-01-01T00:00:00.000Z";
  if (s.format === "uri") return "https://example.com";
  return typeof s.minLength === "number" ? "x".repeat(s.minLength) : "string";
}

/** Documented success examples of operations whose response is the named schema. */
function operationExamples(doc: Doc, name: string): unknown[] {
  const out: unknown[] = [];
  for (const item of Object.values(doc.paths)) {
    for (const op of Object.values(item) as Json[]) {
      if (!op || typeof op !== "object" || !op.responses) continue;
      if (schemaName(successSchema(doc, op)) !== name) continue;
      for (const [status, response] of Object.entries(op.responses as Json)) {
        const content = /^2\d\d$/.test(status) ? jsonContent(doc, response) : undefined;
        if (content) out.push(...examplesOf(doc, content.media).map((e) => e.value));
      }
    }
  }
  return out;
}

/** The status the resource has after the event: the one its summary names ("… (status `processing`)"), else the event's
 * verb (`bank_transfer.completed` → `completed`), when the schema's `status` enum has it. */
export function statusAfter(doc: Doc, type: string, summary: string, dataSchema: unknown): string | undefined {
  const status = deref(doc, objectProperties(doc, dataSchema).properties.status);
  if (!Array.isArray(status.enum)) return undefined;
  const named = /status `([a-z_]+)`/.exec(summary)?.[1];
  const verb = type.slice(type.lastIndexOf(".") + 1);
  return [named, verb].find((s): s is string => s !== undefined && (status.enum as unknown[]).includes(s));
}

/** Among operation examples of the data schema, one with the status after the event; else the first, with that status. */
function withPlausibleStatus(candidates: unknown[], status: string | undefined): unknown {
  const first = candidates[0];
  if (status === undefined) return first;
  const matching = candidates.find((c) => (c as Json | undefined)?.status === status);
  if (matching !== undefined) return matching;
  return first && typeof first === "object" ? { ...(first as Json), status } : first;
}

export function mockWebhooks(doc: Doc, values: ExampleValues): MockWebhookJson[] {
  return webhookEntries(doc).map(({ type, summary, media }) => {
    const dataProperty = media ? objectProperties(doc, media.schema).properties.data : undefined;
    const dataSchema = schemaName(dataProperty);
    const own = (media ? examplesOf(doc, media).map((e) => (e.value as Json | undefined)?.data) : []).filter((v) => v !== undefined);
    const fromOperations = dataSchema ? operationExamples(doc, dataSchema) : [];
    const data =
      own.length > 0
        ? own[0]
        : fromOperations.length > 0
          ? withPlausibleStatus(fromOperations, statusAfter(doc, type, summary, dataProperty))
          : sampleOf(doc, dataProperty ?? {});
    return dataSchema ? { type, dataSchema, data: values.indexOf(data) } : { type, data: values.indexOf(data) };
  });
}
