// Validates a response (status, content type, body) against the bundled spec with ajv (JSON Schema 2020-12, the dialect
// of OpenAPI 3.1): the schema of the operation's documented response for that status and media type.
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { isIsoCountry, isIsoRegion } from "../../server/lib/countries/iso-countries.ts";
import type { OpenApiDocument } from "../../server/spec/load-spec.ts";

// ajv-formats is CommonJS; under NodeNext its default import is the module object.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv2020) => Ajv2020;

type Json = Record<string, unknown>;
const pointerEscape = (s: string) => s.replace(/~/g, "~0").replace(/\//g, "~1");

export class SpecValidator {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
  private readonly compiled = new Map<string, ValidateFunction>();

  private readonly doc: OpenApiDocument;

  constructor(doc: OpenApiDocument) {
    this.doc = doc;
    addFormats(this.ajv);
    // The spec's own formats, checked as the server's request validator checks them (server/middleware/openapi-validator.ts).
    this.ajv.addFormat("iso3166-alpha2", { type: "string", validate: isIsoCountry });
    this.ajv.addFormat("iso3166-region", { type: "string", validate: isIsoRegion });
    this.ajv.addSchema(doc as object, "spec");
  }

  /** The spec's node at a JSON pointer (`#/paths/…`), `$ref`s not followed. */
  node(pointer: string): Json | undefined {
    let node: unknown = this.doc;
    for (const part of pointer.replace(/^#\//, "").split("/"))
      node = (node as Json | undefined)?.[part.replace(/~1/g, "/").replace(/~0/g, "~")];
    return node as Json | undefined;
  }

  /** Problems with this response, empty when it matches the spec. */
  check(method: string, pathTemplate: string, status: number, contentType: string | null, body: unknown): string[] {
    let pointer = `#/paths/${pointerEscape(pathTemplate)}/${method.toLowerCase()}/responses/${status}`;
    let response = this.node(pointer);
    if (!response) return [`${method} ${pathTemplate}: status ${status} is not documented`];
    while (typeof response?.$ref === "string") {
      pointer = response.$ref;
      response = this.node(pointer);
    }
    const content = (response?.content ?? {}) as Json;
    if (Object.keys(content).length === 0) return body === undefined || body === "" ? [] : [`${status} documents no body`];
    const media = (contentType ?? "").split(";")[0]?.trim() ?? "";
    if (!(media in content)) return [`${status}: content type ${media || "(none)"} is not documented (${Object.keys(content).join(", ")})`];
    const validate = this.validatorFor(`${pointer}/content/${pointerEscape(media)}/schema`);
    if (validate(body)) return [];
    return (validate.errors ?? []).map((e) => `${status} ${e.instancePath || "/"} ${e.message} ${JSON.stringify(e.params)}`);
  }

  /** Problems with an event sent for `type`, empty when it matches the request body of the spec's `webhooks[type]`. */
  checkWebhook(type: string, body: unknown): string[] {
    let pointer = `#/webhooks/${pointerEscape(type)}/post/requestBody`;
    let requestBody = this.node(pointer);
    if (!requestBody) return [`webhook ${type} is not in the spec`];
    while (typeof requestBody?.$ref === "string") {
      pointer = requestBody.$ref;
      requestBody = this.node(pointer);
    }
    const validate = this.validatorFor(`${pointer}/content/application~1json/schema`);
    if (validate(body)) return [];
    return (validate.errors ?? []).map((e) => `${type} ${e.instancePath || "/"} ${e.message} ${JSON.stringify(e.params)}`);
  }

  /** The validator of the schema at `schemaPointer`, compiled once. */
  validatorFor(schemaPointer: string): ValidateFunction {
    let validate = this.compiled.get(schemaPointer);
    if (!validate) {
      validate = this.ajv.compile({ $ref: `spec${schemaPointer}` });
      this.compiled.set(schemaPointer, validate);
    }
    return validate;
  }
}
