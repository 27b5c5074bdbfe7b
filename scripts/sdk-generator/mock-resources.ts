// The partner mock's resource model (mockData.schemas and the references of each operation), so created resources are
// read back, acted on and listed, and an unknown id answers 404 with the resource's own message:
// - A schema with an id field belongs to the family of its id prefix (`card_`, `bt_`…: the literal start of the id's
//   pattern, else of its example). The family's canonical schema is the one a GET by id returns, else the one an
//   operation creates. A schema of the family that shows a subset or superset of the canonical one's properties under
//   the same id field is a view of it, kept in the canonical store (`WebhookEndpointWithSecret` → `WebhookEndpoint`);
//   any other schema keeps its own store (`CompileStageResult` names a project but is not one).
// - A path parameter names the resource the GET on the path up to it returns, else the family of its id prefix; a
//   top-level body property whose pattern has a family's prefix names that family (`transferId` → `BankTransfer`).
// - A store is `creatable` when an operation returns a new resource of it (201/202 without naming one of it): ids the
//   mock never created nor the spec shows are 404. It is `listed` when that operation is a POST on a collection (no path
//   parameters): its lists are served from the mock's state.
import type { MockSchemaSpec } from "../../sdk/src/mock/types.ts";
import { type Doc, deref, type Json, objectProperties, type SpecOperation, schemaRef } from "./spec.ts";

/** What the mock keeps of a schema: the SDK's own type, so generator and mock cannot drift apart. */
export type MockSchema = MockSchemaSpec;

export interface ResourceOperation {
  spec: SpecOperation;
  /** The component schema the success response returns (not for lists). */
  resourceSchema?: string;
  /** The list's item schema. */
  itemSchema?: string | null;
}

export interface ResourceModel {
  schemas: Record<string, MockSchema>;
  /** Per operation: its path parameters' stores and its body references. */
  pathResources: Map<string, Record<string, string>>;
  bodyRefs: Map<string, Array<{ field: string; resource: string }>>;
}

const ID_PREFIX = /^\^([A-Za-z]+_)/;

/** The literal prefix of an id schema's pattern (`^card_[A-Za-z0-9]{1,64}$` → `card_`), through `$ref` and `allOf`. */
export function patternPrefix(doc: Doc, schema: unknown, depth = 0): string | undefined {
  const s = deref(doc, schema);
  if (typeof s.pattern === "string") return ID_PREFIX.exec(s.pattern)?.[1];
  if (depth > 8) return undefined;
  for (const branch of (s.allOf ?? []) as unknown[]) {
    const prefix = patternPrefix(doc, branch, depth + 1);
    if (prefix) return prefix;
  }
  return undefined;
}

/** The id prefix a reference's schema admits: its pattern's literal start, else its example's (a pattern that admits
 * any id, such as providers/invoke's `selectionReceiptId`, still names `psr_…` receipts by its example). */
export function referencePrefix(doc: Doc, schema: unknown): string | undefined {
  const example = deref(doc, schema).example;
  const fromExample = typeof example === "string" ? /^([a-z]+_)[A-Za-z0-9]+$/.exec(example)?.[1] : undefined;
  return patternPrefix(doc, schema) ?? fromExample;
}

/** The id prefix of an example id (`cauth_4Ty8Mk2Vb6Rn1Qz7Hx3Lc` → `cauth_`). */
function examplePrefix(example: unknown): string | undefined {
  return typeof example === "string" ? /^([a-z]+_)[A-Za-z0-9]+$/.exec(example)?.[1] : undefined;
}

/** The field that identifies a resource: `id`, else `<schemaName>Id`, else the first required `…Id` property. */
export function idFieldOf(doc: Doc, name: string): string | undefined {
  const { properties, required } = objectProperties(doc, schemaRef(name));
  const keys = Object.keys(properties);
  if (keys.includes("id")) return "id";
  const own = `${name[0]?.toLowerCase()}${name.slice(1)}Id`;
  if (keys.includes(own)) return own;
  return keys.find((k) => k.endsWith("Id") && required.includes(k));
}

/** `CardProgramme` → `Card programme`, as the API's 404 messages name resources. */
export const nounOf = (name: string) => name.replace(/(?<=[a-z])([A-Z])/g, (c) => ` ${c.toLowerCase()}`);

/** Every string value in the spec (examples, schema examples, parameter examples). */
function specStrings(node: unknown, into: Set<string>): void {
  if (typeof node === "string") into.add(node);
  else if (Array.isArray(node)) for (const v of node) specStrings(v, into);
  else if (node && typeof node === "object") for (const v of Object.values(node)) specStrings(v, into);
}

const subset = (a: string[], b: string[]) => a.every((k) => b.includes(k));

export function resourceModel(doc: Doc, ops: ResourceOperation[]): ResourceModel {
  const schemas: Record<string, MockSchema> = {};
  const getByTemplate = new Map(
    ops.filter((o) => o.spec.op.method === "GET" && o.resourceSchema).map((o) => [o.spec.op.pathTemplate, o.resourceSchema as string]),
  );

  // Every schema met: response schemas, list items, owners of path parameters.
  const met: string[] = [];
  const meet = (name: string | null | undefined) => {
    if (name && !met.includes(name)) met.push(name);
  };
  for (const o of ops) {
    meet(o.resourceSchema);
    meet(o.itemSchema);
  }
  const info = new Map(
    met.map((name) => {
      const idField = idFieldOf(doc, name);
      const { properties } = objectProperties(doc, schemaRef(name));
      const prefix = idField ? patternPrefix(doc, properties[idField]) : undefined;
      return [name, { idField, properties: Object.keys(properties), prefix }] as const;
    }),
  );

  // Prefixes from examples for ids without a pattern (v1 WalletBalance.walletId): the prefix of the family's id example.
  const strings = new Set<string>();
  specStrings(doc.paths, strings);
  specStrings(doc.components, strings);
  for (const [name, entry] of info) {
    if (entry.prefix || !entry.idField) continue;
    const example = deref(doc, objectProperties(doc, schemaRef(name)).properties[entry.idField]).example;
    const prefix = typeof example === "string" ? /^([A-Za-z]+_)[A-Za-z0-9]+$/.exec(example)?.[1] : undefined;
    if (prefix) info.set(name, { ...entry, prefix });
  }

  // Canonical schema per prefix: the one a GET by id returns, else the first met.
  const owners = new Set(getByTemplate.values());
  const canonical = new Map<string, string>();
  for (const [name, entry] of info) {
    if (!entry.prefix) continue;
    const current = canonical.get(entry.prefix);
    if (!current || (!owners.has(current) && owners.has(name))) canonical.set(entry.prefix, name);
  }
  for (const [name, entry] of info) {
    const base = entry.prefix ? (canonical.get(entry.prefix) as string) : name;
    const baseInfo = info.get(base);
    const isView =
      base !== name &&
      baseInfo !== undefined &&
      baseInfo.idField === entry.idField &&
      (subset(entry.properties, baseInfo.properties) || subset(baseInfo.properties, entry.properties));
    const store = isView ? base : name;
    schemas[name] = { store, ...(entry.idField ? { idField: entry.idField } : {}), properties: entry.properties };
  }
  const storeOfPrefix = (prefix: string | undefined) => {
    const name = prefix ? canonical.get(prefix) : undefined;
    return name ? (schemas[name]?.store ?? name) : undefined;
  };
  for (const [name, s] of Object.entries(schemas)) {
    if (s.store !== name) continue;
    const prefix = info.get(name)?.prefix;
    s.noun = nounOf(name);
    s.creatable = false;
    s.listed = false;
    if (prefix) {
      s.idPrefix = prefix;
      const id = new RegExp(`^${prefix}[A-Za-z0-9]+$`);
      s.exampleIds = [...strings].filter((v) => id.test(v)).sort();
    } else {
      s.exampleIds = [];
    }
  }

  // References: path parameters and top-level body properties.
  const pathResources = new Map<string, Record<string, string>>();
  const bodyRefs = new Map<string, Array<{ field: string; resource: string }>>();
  // Body references every request of the operation carries (own and allOf `required`; a oneOf shape's are optional).
  const requiredRefs = new Map<string, string[]>();
  for (const { spec } of ops) {
    const { op, raw, parameters } = spec;
    const byParam: Record<string, string> = {};
    for (const p of parameters.filter((q) => q.in === "path")) {
      const name = String(p.name);
      const prefix = op.pathTemplate.slice(0, op.pathTemplate.indexOf(`{${name}}`) + name.length + 2);
      const owner = getByTemplate.get(prefix);
      // Path ids share one schema without a pattern (an id of any form that names nothing is a 404), so the family
      // comes from the parameter's own example (`cauth_…`) when its schema has no prefix.
      const store = owner ? schemas[owner]?.store : storeOfPrefix(referencePrefix(doc, p.schema) ?? examplePrefix(p.example));
      if (store) byParam[name] = store;
    }
    pathResources.set(op.operationId, byParam);
    const requestSchema = (deref(doc, raw.requestBody).content as Json | undefined)?.["application/json"] as Json | undefined;
    if (requestSchema?.schema) {
      const { properties, required } = objectProperties(doc, requestSchema.schema);
      const refs = Object.entries(properties)
        .map(([field, schema]) => ({ field, resource: storeOfPrefix(referencePrefix(doc, schema)) }))
        .filter((r): r is { field: string; resource: string } => r.resource !== undefined);
      if (refs.length) bodyRefs.set(op.operationId, refs);
      requiredRefs.set(
        op.operationId,
        refs.filter((r) => required.includes(r.field)).map((r) => r.resource),
      );
    }
  }

  // Creations: a new resource of the response's store, on a write that need not name one of that store (creating a
  // custody wallet may name one: the approved second step of its creation).
  for (const { spec, resourceSchema } of ops) {
    const store = resourceSchema ? schemas[resourceSchema]?.store : undefined;
    const entry = store ? schemas[store] : undefined;
    if (!store || !entry?.idField || spec.op.method !== "POST") continue;
    const statuses = Object.keys((spec.raw.responses ?? {}) as Json);
    if (!statuses.includes("201") && !statuses.includes("202")) continue;
    const names = [...Object.values(pathResources.get(spec.op.operationId) ?? {}), ...(requiredRefs.get(spec.op.operationId) ?? [])];
    if (names.includes(store)) continue;
    entry.creatable = true;
    if (!spec.parameters.some((p) => p.in === "path")) entry.listed = true;
  }
  return { schemas, pathResources, bodyRefs };
}
