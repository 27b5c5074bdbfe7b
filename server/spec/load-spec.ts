import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const SPEC_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../openapi/generated");

export interface OpenApiDocument {
  openapi: string;
  paths: Record<string, Record<string, unknown>>;
  [key: string]: unknown;
}

/** The bundled specification (built by `npm run generate`). */
export function loadSpec(): OpenApiDocument {
  const { "x-generated": _notice, ...spec } = JSON.parse(readFileSync(path.join(SPEC_DIR, "openapi.json"), "utf8"));
  return spec as OpenApiDocument;
}

export function loadSpecYaml(): string {
  return readFileSync(path.join(SPEC_DIR, "openapi.yaml"), "utf8");
}
