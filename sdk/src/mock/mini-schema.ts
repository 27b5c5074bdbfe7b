// A small, conservative JSON Schema check: the mock copies a request value into a response only when it is valid for the
// response property's schema. A keyword it does not know makes the value "not valid" (the example value is kept instead),
// so a copied value can never make a mock response invalid.
import type { MockJsonSchema } from "./types.ts";

const ANNOTATIONS = new Set(["description", "example", "examples", "title", "deprecated", "readOnly", "writeOnly", "default", "$comment"]);

function typeMatches(type: string, value: unknown): boolean {
  switch (type) {
    case "null":
      return value === null;
    case "string":
      return typeof value === "string";
    case "boolean":
      return typeof value === "boolean";
    case "number":
      return typeof value === "number" && Number.isFinite(value);
    case "integer":
      return typeof value === "number" && Number.isInteger(value);
    case "array":
      return Array.isArray(value);
    case "object":
      return typeof value === "object" && value !== null && !Array.isArray(value);
    default:
      return false;
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

export function conforms(schema: MockJsonSchema | boolean | undefined, value: unknown, depth = 0): boolean {
  if (schema === true || schema === undefined) return true;
  if (schema === false || depth > 16) return false;
  for (const [keyword, arg] of Object.entries(schema)) {
    if (ANNOTATIONS.has(keyword)) continue;
    switch (keyword) {
      case "type":
        if (!(Array.isArray(arg) ? arg : [arg]).some((t) => typeMatches(String(t), value))) return false;
        break;
      case "enum":
        if (!(arg as unknown[]).some((e) => JSON.stringify(e) === JSON.stringify(value))) return false;
        break;
      case "const":
        if (JSON.stringify(arg) !== JSON.stringify(value)) return false;
        break;
      case "pattern":
        if (typeof value === "string" && !new RegExp(String(arg), "u").test(value)) return false;
        break;
      case "minLength":
        if (typeof value === "string" && [...value].length < Number(arg)) return false;
        break;
      case "maxLength":
        if (typeof value === "string" && [...value].length > Number(arg)) return false;
        break;
      case "minimum":
        if (typeof value === "number" && value < Number(arg)) return false;
        break;
      case "maximum":
        if (typeof value === "number" && value > Number(arg)) return false;
        break;
      case "minItems":
        if (Array.isArray(value) && value.length < Number(arg)) return false;
        break;
      case "maxItems":
        if (Array.isArray(value) && value.length > Number(arg)) return false;
        break;
      case "items":
        if (Array.isArray(value) && !value.every((v) => conforms(arg as MockJsonSchema, v, depth + 1))) return false;
        break;
      case "properties":
        if (isObject(value)) {
          for (const [k, s] of Object.entries(arg as Record<string, MockJsonSchema>)) {
            if (k in value && !conforms(s, value[k], depth + 1)) return false;
          }
        }
        break;
      case "required":
        if (isObject(value) && !(arg as string[]).every((k) => k in value)) return false;
        break;
      case "additionalProperties":
        if (isObject(value)) {
          const known = new Set(Object.keys((schema.properties ?? {}) as object));
          for (const [k, v] of Object.entries(value)) {
            if (!known.has(k) && !conforms(arg as MockJsonSchema | boolean, v, depth + 1)) return false;
          }
        }
        break;
      case "allOf":
        if (!(arg as MockJsonSchema[]).every((s) => conforms(s, value, depth + 1))) return false;
        break;
      case "anyOf":
        if (!(arg as MockJsonSchema[]).some((s) => conforms(s, value, depth + 1))) return false;
        break;
      case "oneOf":
        if ((arg as MockJsonSchema[]).filter((s) => conforms(s, value, depth + 1)).length !== 1) return false;
        break;
      case "format":
        if (typeof value === "string" && (arg === "date-time" || arg === "date") && Number.isNaN(Date.parse(value))) return false;
        if (typeof value === "string" && !["date-time", "date"].includes(String(arg))) return false;
        break;
      default:
        return false;
    }
  }
  return true;
}
