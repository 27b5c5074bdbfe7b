// Reads JSON Schemas of the bundled spec for the fuzz generator: resolves $refs, finds the schema of any node of a body,
// and samples valid-ish values (examples first), so mutations start from something the validator would accept.
import type { OpenApiDocument } from "../../server/spec/load-spec.ts";

export type Schema = Record<string, unknown>;
export type PathSegment = string | number;

export interface BodyNode {
  path: PathSegment[];
  value: unknown;
  /** The schema of this node, when it could be found. */
  schema: Schema | undefined;
  /** True when this node or one of its ancestors is a oneOf / anyOf choice. */
  underChoice: boolean;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

export class SchemaReader {
  private readonly doc: OpenApiDocument;

  constructor(doc: OpenApiDocument) {
    this.doc = doc;
  }

  resolve(schema: unknown): Schema | undefined {
    let node = schema;
    for (let hops = 0; isObject(node) && typeof node.$ref === "string" && hops < 32; hops++) {
      node = (node.$ref as string)
        .slice(2)
        .split("/")
        .reduce<unknown>((o, k) => (o as Record<string, unknown>)?.[k.replace(/~1/g, "/").replace(/~0/g, "~")], this.doc);
    }
    return isObject(node) ? node : undefined;
  }

  /** allOf members (recursively) and the schema itself, resolved. */
  private members(schema: Schema | undefined): Schema[] {
    if (!schema) return [];
    const out: Schema[] = [schema];
    for (const member of (schema.allOf ?? []) as unknown[]) out.push(...this.members(this.resolve(member)));
    return out;
  }

  /** The oneOf / anyOf branches of a schema (through allOf), resolved. */
  branches(schema: Schema | undefined): Schema[] {
    const out: Schema[] = [];
    for (const member of this.members(schema)) {
      for (const branch of [...((member.oneOf ?? []) as unknown[]), ...((member.anyOf ?? []) as unknown[])]) {
        const resolved = this.resolve(branch);
        if (resolved) out.push(resolved);
      }
    }
    return out;
  }

  /** The branch an object value most likely follows: the one naming most of its keys. */
  private bestBranch(schema: Schema | undefined, value: unknown): Schema | undefined {
    const branches = this.branches(schema);
    if (branches.length === 0 || !isObject(value)) return branches[0];
    let best: Schema | undefined;
    let bestScore = -1;
    for (const branch of branches) {
      const names = Object.keys(this.properties(branch));
      const score = Object.keys(value).filter((k) => names.includes(k)).length;
      if (score > bestScore) [best, bestScore] = [branch, score];
    }
    return best;
  }

  properties(schema: Schema | undefined, value?: unknown): Record<string, Schema> {
    const out: Record<string, Schema> = {};
    for (const member of this.members(schema)) {
      for (const [name, sub] of Object.entries((member.properties ?? {}) as Record<string, unknown>)) {
        const resolved = this.resolve(sub);
        if (resolved) out[name] = resolved;
      }
    }
    const branch = this.bestBranch(schema, value);
    if (branch) Object.assign(out, this.properties(branch, value));
    return out;
  }

  required(schema: Schema | undefined, value?: unknown): string[] {
    const out = new Set<string>();
    for (const member of this.members(schema)) for (const name of (member.required ?? []) as string[]) out.add(name);
    const branch = this.bestBranch(schema, value);
    if (branch) for (const name of this.required(branch, value)) out.add(name);
    return [...out];
  }

  enumOf(schema: Schema | undefined): unknown[] | undefined {
    for (const member of this.members(schema)) if (Array.isArray(member.enum)) return member.enum;
    return undefined;
  }

  private child(schema: Schema | undefined, value: unknown, key: PathSegment): Schema | undefined {
    if (!schema) return undefined;
    if (typeof key === "number") {
      for (const member of this.members(schema)) if (member.items) return this.resolve(member.items);
      return undefined;
    }
    const property = this.properties(schema, value)[key];
    if (property) return property;
    for (const member of this.members(schema)) if (isObject(member.additionalProperties)) return this.resolve(member.additionalProperties);
    return undefined;
  }

  /** Every node of a JSON value (root included), with its schema where known. */
  nodes(value: unknown, schema: Schema | undefined): BodyNode[] {
    const out: BodyNode[] = [];
    const visit = (node: unknown, nodeSchema: Schema | undefined, path: PathSegment[], underChoice: boolean) => {
      const choice = underChoice || this.branches(nodeSchema).length > 1;
      out.push({ path, value: node, schema: nodeSchema, underChoice: choice });
      if (Array.isArray(node)) {
        for (const [i, item] of node.entries()) visit(item, this.child(nodeSchema, node, i), [...path, i], choice);
      } else if (isObject(node))
        for (const [key, item] of Object.entries(node)) visit(item, this.child(nodeSchema, node, key), [...path, key], choice);
    };
    visit(value, schema, [], false);
    return out;
  }

  /** A value the schema probably accepts: its example, enum, default, else one built from its type. */
  sample(schema: Schema | undefined, depth = 0): unknown {
    if (!schema || depth > 6) return "abc";
    for (const member of this.members(schema)) {
      if (member.example !== undefined) return structuredClone(member.example);
      if (Array.isArray(member.examples) && member.examples.length > 0) return structuredClone(member.examples[0]);
      if (member.const !== undefined) return member.const;
      if (Array.isArray(member.enum)) return member.enum[0];
      if (member.default !== undefined) return structuredClone(member.default);
    }
    const branch = this.branches(schema)[0];
    if (branch) return this.sample(branch, depth + 1);
    const types = this.members(schema).flatMap((m) => (Array.isArray(m.type) ? m.type : m.type ? [m.type] : [])) as string[];
    const type = types.find((t) => t !== "null") ?? (Object.keys(this.properties(schema)).length > 0 ? "object" : "string");
    const pick = <K extends string>(key: K) => this.members(schema).find((m) => m[key] !== undefined)?.[key];
    switch (type) {
      case "integer":
      case "number":
        return typeof pick("minimum") === "number" ? pick("minimum") : 1;
      case "boolean":
        return true;
      case "array": {
        const items = this.resolve(pick("items"));
        return Array.from({ length: Math.max(1, Number(pick("minItems") ?? 1)) }, () => this.sample(items, depth + 1));
      }
      case "object": {
        const properties = this.properties(schema);
        const out: Record<string, unknown> = {};
        for (const name of this.required(schema)) out[name] = this.sample(properties[name], depth + 1);
        return out;
      }
      default: {
        const format = pick("format");
        if (format === "date-time") return "2024-01-01T00:00:00Z";
        if (format === "date") return "2024-01-01";
        if (format === "email") return "fuzz@example.com";
        if (format === "uri" || format === "uri-reference") return "https://example.com/";
        const pattern = pick("pattern");
        const prefix = typeof pattern === "string" ? /^\^([A-Za-z0-9_-]*)/.exec(pattern)?.[1] : undefined;
        return `${prefix ?? ""}${"a".repeat(Math.max(3, Number(pick("minLength") ?? 0)))}`;
      }
    }
  }
}

/** Reads the value at a path. */
export function getAt(root: unknown, path: PathSegment[]): unknown {
  return path.reduce<unknown>((node, key) => (node as Record<PathSegment, unknown> | undefined)?.[key], root);
}

/** Returns a copy of `root` with the node at `path` replaced (or removed when `remove`); the root path replaces it all.
 * Properties are defined, not assigned, so names such as `__proto__` become real keys of the JSON. */
export function setAt(root: unknown, path: PathSegment[], value: unknown, remove = false): unknown {
  if (path.length === 0) return value;
  const copy = structuredClone(root) as Record<PathSegment, unknown>;
  const parent = getAt(copy, path.slice(0, -1)) as Record<PathSegment, unknown>;
  const key = path[path.length - 1] as PathSegment;
  if (remove) {
    if (Array.isArray(parent)) parent.splice(key as number, 1);
    else delete parent[key];
  } else Object.defineProperty(parent, key, { value, enumerable: true, writable: true, configurable: true });
  return copy;
}

export function jsonType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}
