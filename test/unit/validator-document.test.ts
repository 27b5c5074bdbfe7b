// The copy of the spec the request validator gets (server/spec/validator-document.ts): annotations go, field names that
// look like annotations stay, and response bodies go only when responses are not validated.
import { describe, expect, it } from "vitest";
import type { OpenApiDocument } from "../../server/spec/load-spec.ts";
import { loadSpec } from "../../server/spec/load-spec.ts";
import { validatorDocument } from "../../server/spec/validator-document.ts";

const doc = (): OpenApiDocument => ({
  openapi: "3.1.0",
  paths: {
    "/notes": {
      post: {
        summary: "Create a note",
        description: "Long prose",
        "x-codeSamples": [{ lang: "Shell", source: "curl" }],
        requestBody: {
          content: {
            "application/json": {
              schema: { $ref: "#/components/schemas/Note" },
              examples: { one: { value: { description: "hi" } } },
            },
          },
        },
        responses: {
          "201": { description: "Created", content: { "application/json": { schema: { $ref: "#/components/schemas/Note" } } } },
          "400": { $ref: "#/components/responses/Bad" },
        },
      },
    },
  },
  components: {
    schemas: {
      Note: {
        type: "object",
        description: "A note",
        additionalProperties: false,
        required: ["description"],
        properties: { description: { type: "string", description: "The text", example: "hi" }, example: { type: "string" } },
      },
    },
    responses: { Bad: { description: "Bad", content: { "application/json": { schema: { type: "object" } } } } },
    headers: { "X-Request-Id": { schema: { type: "string" } } },
    examples: { big: { value: { a: 1 } } },
  },
});

// biome-ignore lint/suspicious/noExplicitAny: the copy is read field by field
type Loose = any;

describe("validatorDocument", () => {
  it("drops annotations but keeps properties named like them, and the schema's rules", () => {
    const out = validatorDocument(doc(), true) as Loose;
    const post = out.paths["/notes"].post;
    expect(post.summary).toBeUndefined();
    expect(post.description).toBeUndefined();
    expect(post["x-codeSamples"]).toBeUndefined();
    expect(post.requestBody.content["application/json"]).toEqual({ schema: { $ref: "#/components/schemas/Note" } });
    expect(out.components.examples).toBeUndefined();
    expect(out.components.schemas.Note).toEqual({
      type: "object",
      additionalProperties: false,
      required: ["description"],
      properties: { description: { type: "string" }, example: { type: "string" } },
    });
  });

  it("keeps response bodies when responses are validated, and leaves only the statuses otherwise", () => {
    expect((validatorDocument(doc(), true) as Loose).paths["/notes"].post.responses["201"].content).toBeDefined();
    const bare = validatorDocument(doc(), false) as Loose;
    expect(bare.paths["/notes"].post.responses).toEqual({ "201": { description: "" }, "400": { description: "" } });
    expect(bare.components.responses).toEqual({ Bad: { description: "" } });
    expect(bare.components.headers).toBeUndefined();
  });

  it("leaves the given spec untouched and keeps every operation of the bundled one", () => {
    const spec = loadSpec();
    const before = JSON.stringify(spec);
    const out = validatorDocument(spec, false);
    expect(JSON.stringify(spec)).toBe(before);
    for (const [route, item] of Object.entries(spec.paths)) expect(Object.keys(out.paths[route] ?? {})).toEqual(Object.keys(item));
    expect(JSON.stringify(out).length).toBeLessThan(before.length / 2);
  });
});
