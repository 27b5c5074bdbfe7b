// Generates the MCP tools from the contract (`npm run generate` → sdk/src/generated/mcp-tools.ts): one tool per operation
// an API key may call (never admin, session-only or `x-people-only` operations), one per body shape where the operation
// names its shapes (`x-mcp-shapes`). Each input is one flat object (path and query parameters, the body's properties,
// `idempotency_key`), every $ref inlined, no top-level combinator. The extensions it reads are described in docs/agents.md.
import type { JsonSchema, McpToolDefinition } from "../../sdk/src/mcp/tool-definition.ts";
import { deref, jsonTypes, shortText, slimSchema } from "./slim-schema.ts";

type Schema = Record<string, unknown>;
type Operation = Schema & { operationId: string; parameters?: Schema[]; requestBody?: Schema; responses: Record<string, Schema> };
interface Shape {
  tool: string;
  createsApproval?: boolean;
  next?: string;
}

const METHODS = ["get", "post", "put", "patch", "delete"] as const;
/** Tags whose operations reach a provider (bank, custodian, card issuer, screening, chain): `openWorldHint`. */
const OPEN_WORLD_TAGS = new Set(["Bank transfers", "Custody", "Cards", "Compliance", "Providers", "Corridors"]);
const NAME = /^[a-z][a-z0-9_]{0,63}$/;
/** The listed schemas: arguments described in a few words, typed two levels down. describe_operation answers FULL. */
const SLIM = { topDescription: 64, nestedDescription: 0, maxDepth: 2 };
const FULL = { topDescription: 100, nestedDescription: 40 };
export const IDEMPOTENCY_ARGUMENT = "idempotency_key";
export const WAIT_ARGUMENT = "wait_seconds";

export const snakeCase = (id: string) => id.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toLowerCase();
export const toolsetOf = (tag: string) => tag.toLowerCase().replace(/[^a-z0-9]+/g, "-");

function apiKeyScopes(spec: Schema, op: Operation): string[] | null {
  const security = (op.security ?? spec.security) as Record<string, string[]>[];
  const requirement = security.find((r) => "apiKey" in r);
  return requirement ? (requirement.apiKey ?? []) : null;
}

function parameters(spec: Schema, op: Operation, pathItem: Schema): Schema[] {
  return [...((pathItem.parameters as Schema[]) ?? []), ...(op.parameters ?? [])].map((p) => deref(spec, p));
}

/** The body's shapes: one object, the merged parts of an allOf, or the branches of a oneOf. */
function bodyShapes(spec: Schema, op: Operation): { shapes: Schema[]; required: boolean } | null {
  if (!op.requestBody) return null;
  const body = deref(spec, op.requestBody);
  const schema = deref(spec, ((body.content as Schema)["application/json"] as Schema).schema as Schema);
  const required = body.required === true;
  if (Array.isArray(schema.oneOf)) return { shapes: (schema.oneOf as Schema[]).map((b) => deref(spec, b)), required };
  return { shapes: [schema], required };
}

/** A oneOf body without named shapes is one tool whose arguments are every shape's properties, none required. */
function mergeShapes(shapes: Schema[]): Schema {
  if (shapes.length === 1) return shapes[0] as Schema;
  const properties: Schema = {};
  for (const s of shapes) Object.assign(properties, (s.properties as Schema) ?? {});
  return { type: "object", properties };
}

/** The success answer's top-level properties; `typed` adds each one's JSON type (describe_operation), the listed schema
 * names them only — their types would cost a quarter of the list's budget, and the contract has them in full. */
function outputSchema(spec: Schema, op: Operation, createsApproval: boolean, typed: boolean): McpToolDefinition["outputSchema"] {
  const bodies = Object.entries(op.responses)
    .filter(([status]) => status.startsWith("2"))
    .map(([, r]) => deref(spec, r))
    .map((r) => ((r.content as Schema | undefined)?.["application/json"] as Schema | undefined)?.schema as Schema | undefined)
    .filter((s): s is Schema => s !== undefined)
    .map((s) => slimTop(spec, s, typed));
  if (bodies.length === 0) return null;
  // Several success answers (201 and 200, 202): the properties they share a type for, required where all require them.
  const properties: Record<string, JsonSchema> = {};
  const first = bodies[0] as { properties: Record<string, JsonSchema>; required: string[] };
  for (const [name, p] of Object.entries(first.properties)) {
    if (bodies.every((b) => JSON.stringify(b.properties[name]) === JSON.stringify(p))) properties[name] = p;
    else properties[name] = {};
  }
  for (const b of bodies) for (const name of Object.keys(b.properties)) properties[name] ??= {};
  const required = first.required.filter((r) => bodies.every((b) => b.required.includes(r)));
  if (createsApproval) {
    properties.approval = typed
      ? { type: "object", properties: { id: { type: "string" }, status: { type: "string" }, url: { type: "string" } } }
      : {};
  }
  // `required` is left out: the properties' types are what a caller reads; it would cost a fifth of the list's size.
  void required;
  return { type: "object", properties };
}

/** The top level of a response body: each property's JSON type, nothing deeper (the full schema is in the contract). */
function slimTop(spec: Schema, schema: Schema, typed: boolean): { properties: Record<string, JsonSchema>; required: string[] } {
  const s = deref(spec, schema);
  const merged = Array.isArray(s.allOf) ? (s.allOf as Schema[]).map((p) => deref(spec, p)) : [s];
  const props: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const part of merged) {
    for (const [name, p] of Object.entries((part.properties as Schema) ?? {})) {
      const types = jsonTypes(spec, p as Schema);
      props[name] = types ? { type: types.length === 1 ? types[0] : types } : {};
      if (!typed) props[name] = {};
    }
    required.push(...((part.required as string[]) ?? []));
  }
  return { properties: props, required };
}

function describe(parts: {
  summary: string;
  scopes: string[];
  idempotency: McpToolDefinition["idempotency"];
  sandboxOnly: boolean;
  createsApproval: boolean;
  shapeNote?: string;
  next?: string;
}): string {
  const lines = [`${parts.summary.replace(/\.$/, "")}.`];
  if (parts.shapeNote) lines.push(parts.shapeNote);
  lines.push(parts.scopes.length > 0 ? `Scope: ${parts.scopes.join(" or ")}.` : "Any key of the organization.");
  if (parts.sandboxOnly) lines.push("Sandbox keys only.");
  if (parts.idempotency !== "none") lines.push("idempotency_key: new per call, the same on a retry.");
  if (parts.createsApproval) lines.push("Creates an approval request: a member must approve it in the console (`approval.url`).");
  if (parts.next) lines.push(`Next: ${parts.next}`);
  return lines.join(" ");
}

export function generateMcpTools(spec: Schema): McpToolDefinition[] {
  const tools: McpToolDefinition[] = [];
  for (const [path, pathItem] of Object.entries(spec.paths as Record<string, Schema>)) {
    for (const method of METHODS) {
      const op = pathItem[method] as Operation | undefined;
      if (!op) continue;
      const scopes = apiKeyScopes(spec, op);
      if (scopes === null || op["x-people-only"] === true) continue;
      const params = parameters(spec, op, pathItem);
      const idem = params.find((p) => p.in === "header" && p.name === "Idempotency-Key");
      const idempotency = idem ? (idem.required ? "required" : "optional") : "none";
      for (const p of params) {
        if (p.in === "header" && p.name !== "Idempotency-Key" && p.required)
          throw new Error(`${op.operationId}: required header ${p.name}`);
        if (p.in === "cookie") throw new Error(`${op.operationId}: cookie parameter ${p.name}`);
      }
      const pathParams = params.filter((p) => p.in === "path");
      const queryParams = params.filter((p) => p.in === "query");
      const body = bodyShapes(spec, op);
      const namedShapes = op["x-mcp-shapes"] as Shape[] | undefined;
      if (body && body.shapes.length > 1 && namedShapes && namedShapes.length !== body.shapes.length) {
        throw new Error(`${op.operationId}: x-mcp-shapes names ${namedShapes.length} shapes, the body has ${body.shapes.length}`);
      }
      const shapes: { name: string; schema: Schema | null; shape?: Shape; note?: string }[] =
        body && namedShapes
          ? body.shapes.map((schema, i) => ({
              name: (namedShapes[i] as Shape).tool,
              schema,
              shape: namedShapes[i] as Shape,
              note: shortText(schema.description, 200),
            }))
          : [
              {
                name: snakeCase(op.operationId),
                schema: body ? mergeShapes(body.shapes) : null,
                note: body && body.shapes.length > 1 ? "The body is exactly one of its shapes (see describe or the contract)." : undefined,
              },
            ];
      const tag = ((op.tags as string[]) ?? ["other"])[0] as string;
      const sandboxOnly = op["x-sandbox-only"] === true;
      const readOnly = method === "get" || op["x-read-only"] === true;
      const wait = (op["x-mcp-wait"] as McpToolDefinition["wait"]) ?? null;
      for (const shape of shapes) {
        if (!NAME.test(shape.name)) throw new Error(`tool name ${shape.name} does not match ${NAME}`);
        const createsApproval = shape.shape ? shape.shape.createsApproval === true : op["x-creates-approval"] === true;
        const input = (options: typeof SLIM | typeof FULL, describeQuery: boolean) => {
          const properties: Record<string, JsonSchema> = {};
          const required: string[] = [];
          const add = (name: string, schema: JsonSchema, isRequired: boolean) => {
            if (name in properties) throw new Error(`${shape.name}: argument ${name} appears twice (path, query or body)`);
            properties[name] = schema;
            if (isRequired) required.push(name);
          };
          for (const p of [...pathParams, ...queryParams]) {
            const schema = slimSchema(spec, (p.schema as Schema) ?? {}, options);
            const text = p.in === "path" || describeQuery ? shortText(p.description, options.topDescription) : undefined;
            // The parameter's own description says what this id or filter is; its schema's (a shared PathId) is generic.
            add(p.name as string, text ? { ...schema, description: text } : schema, p.required === true);
          }
          const bodyParams: string[] = [];
          if (shape.schema) {
            const slim = slimSchema(spec, shape.schema, options);
            for (const [name, p] of Object.entries((slim.properties as Record<string, JsonSchema>) ?? {})) {
              // The key already names its organization; the optional field only has to match it, so tools leave it out.
              if (name === "organizationId" && !((slim.required as string[]) ?? []).includes(name)) continue;
              add(name, p, ((slim.required as string[]) ?? []).includes(name));
              bodyParams.push(name);
            }
          }
          if (idempotency !== "none") {
            // Said once in the tool's description (a property description here would cost 44 copies).
            add(IDEMPOTENCY_ARGUMENT, { type: "string" }, idempotency === "required");
          }
          if (wait) {
            const text = `Wait up to this many seconds while ${wait.field} is ${wait.while.join(" or ")}.`;
            add(WAIT_ARGUMENT, { type: "integer", minimum: 0, maximum: wait.maxSeconds, description: text }, false);
          }
          const schema = { type: "object" as const, properties, ...(required.length > 0 ? { required } : {}) };
          return { schema, bodyParams: shape.schema ? bodyParams : null };
        };
        const listed = input(SLIM, false);
        const full = input(FULL, true).schema;
        tools.push({
          name: shape.name,
          // Only a shape's tool has a title (its shape's): elsewhere it would repeat the description's first sentence.
          title: shape.shape ? ((shape.schema?.title as string | undefined) ?? null) : null,
          operationId: op.operationId,
          method,
          path,
          toolset: toolsetOf(tag),
          scopes,
          sandboxOnly,
          pathParams: pathParams.map((p) => p.name as string),
          queryParams: queryParams.map((p) => p.name as string),
          bodyParams: listed.bodyParams,
          bodyRequired: body?.required ?? false,
          idempotency,
          createsApproval,
          wait,
          description: describe({
            summary: op.summary as string,
            scopes,
            idempotency,
            sandboxOnly,
            createsApproval,
            shapeNote: shape.note,
            next: shape.shape?.next ?? (op["x-agent-next"] as string | undefined),
          }),
          inputSchema: listed.schema,
          fullInputSchema: JSON.stringify(full) === JSON.stringify(listed.schema) ? null : full,
          outputSchema: outputSchema(spec, op, createsApproval, false),
          fullOutputSchema: outputSchema(spec, op, createsApproval, true),
          annotations: {
            readOnlyHint: readOnly,
            destructiveHint: !readOnly && (method === "delete" || op["x-destructive"] === true),
            idempotentHint: readOnly || idempotency === "required",
            openWorldHint: OPEN_WORLD_TAGS.has(tag),
          },
        });
      }
    }
  }
  const names = new Set<string>();
  for (const t of tools) {
    if (names.has(t.name)) throw new Error(`two tools named ${t.name}`);
    names.add(t.name);
  }
  return tools;
}

/** The TypeScript module the SDK imports. */
export function mcpToolsModule(spec: Schema, notice: string): string {
  const tools = generateMcpTools(spec);
  return `/* ${notice} */
import type { McpToolDefinition } from "../mcp/tool-definition.ts";

/** ${tools.length} tools, one per API-key operation (and per named body shape): scripts/mcp-tools/. */
export const mcpTools: readonly McpToolDefinition[] = ${JSON.stringify(tools, null, 2)};
`;
}
