import { describe, expect, it } from "vitest";
import {
  nounOf,
  patternPrefix,
  type ResourceOperation,
  referencePrefix,
  resourceModel,
} from "../../../scripts/sdk-generator/mock-resources.ts";
import { type Json, specOperations } from "../../../scripts/sdk-generator/spec.ts";
import { json, ref, spec } from "./fixtures.ts";

const obj = (properties: Json, required: string[] = []) => ({ type: "object", properties, required });
const ok = (schema: string, status = "200") => ({ [status]: json(ref(schema)) });

describe("id prefixes and nouns", () => {
  const doc = spec({}, { CardId: { type: "string", pattern: "^card_[A-Za-z0-9]{1,64}$" } });
  it.each([
    ["a pattern's literal start", { type: "string", pattern: "^card_[a-z]+$" }, "card_"],
    ["through $ref and allOf", { allOf: [ref("CardId")] }, "card_"],
    ["none for a pattern admitting anything", { type: "string", pattern: "^[A-Za-z0-9_-]{1,64}$" }, undefined],
  ])("%s", (_name, schema, prefix) => {
    expect(patternPrefix(doc, schema)).toBe(prefix);
  });

  it("a reference whose pattern admits anything is named by its example", () => {
    expect(referencePrefix(doc, { type: "string", pattern: "^[A-Za-z0-9_-]{1,64}$", example: "psr_3Hn8Qd2" })).toBe("psr_");
  });

  it.each([
    ["Card", "Card"],
    ["CardProgramme", "Card programme"],
    ["WebhookEndpoint", "Webhook endpoint"],
  ])("%s → %s", (name, noun) => {
    expect(nounOf(name)).toBe(noun);
  });
});

describe("resourceModel", () => {
  const endpointId = { type: "string", pattern: "^we_[0-9]+$" };
  const transferId = { type: "string", pattern: "^bt_[0-9]+$" };
  const doc = spec(
    {
      "/api/v2/agent/endpoints": {
        post: {
          operationId: "createEndpoint",
          requestBody: json(obj({ url: { type: "string" } })),
          responses: ok("EndpointWithSecret", "201"),
        },
      },
      "/api/v2/agent/endpoints/{endpointId}": {
        get: {
          operationId: "getEndpoint",
          parameters: [{ name: "endpointId", in: "path", schema: endpointId }],
          responses: ok("Endpoint"),
        },
      },
      "/api/v2/agent/endpoints/{endpointId}/test": {
        post: {
          operationId: "testEndpoint",
          parameters: [{ name: "endpointId", in: "path", schema: endpointId }],
          responses: ok("Event", "202"),
        },
      },
      "/api/v2/agent/endpoints/{endpointId}/stats": {
        get: {
          operationId: "endpointStats",
          parameters: [{ name: "endpointId", in: "path", schema: endpointId }],
          responses: ok("EndpointStats"),
        },
      },
      "/api/v2/agent/transfers": {
        post: { operationId: "createTransfer", requestBody: json(obj({ amount: { type: "string" } })), responses: ok("Transfer", "201") },
      },
      "/api/v2/agent/transfers/status": {
        post: { operationId: "transferStatus", requestBody: json(obj({ transferId }, ["transferId"])), responses: ok("Transfer", "201") },
      },
    },
    {
      Endpoint: obj({ id: endpointId, url: { type: "string" } }, ["id"]),
      EndpointWithSecret: obj({ id: endpointId, url: { type: "string" }, secret: { type: "string" } }, ["id"]),
      EndpointStats: obj({ id: endpointId, deliveries: { type: "integer" } }, ["id"]),
      Event: obj({ id: { type: "string", example: "evt_1" }, type: { type: "string" } }, ["id"]),
      Transfer: obj({ id: transferId, amount: { type: "string" } }, ["id"]),
    },
  );
  const schemaOf = (raw: Json) =>
    (raw.responses as Record<string, { content: { "application/json": { schema: { $ref: string } } } }>)[
      Object.keys(raw.responses as Json)[0] as string
    ]?.content["application/json"].schema.$ref
      .split("/")
      .pop();
  const ops: ResourceOperation[] = specOperations(doc).map((o) => ({ spec: o, resourceSchema: schemaOf(o.raw) }));
  const model = resourceModel(doc, ops);

  it("keeps a view of a resource (same id, a superset of its properties) in the resource's store", () => {
    expect(model.schemas.EndpointWithSecret).toMatchObject({ store: "Endpoint", properties: ["id", "url", "secret"] });
    expect(model.schemas.Endpoint).toMatchObject({ store: "Endpoint", idPrefix: "we_", creatable: true, listed: true, noun: "Endpoint" });
  });

  it("keeps another schema of the same family in its own store (it names the resource, it is not one)", () => {
    expect(model.schemas.EndpointStats).toMatchObject({ store: "EndpointStats", creatable: false });
  });

  it("a sub-resource answered 202 is creatable (unknown ids are 404) but not listed from state; its prefix may come from its example", () => {
    expect(model.schemas.Event).toMatchObject({ store: "Event", idPrefix: "evt_", creatable: true, listed: false, exampleIds: ["evt_1"] });
  });

  it("ties path parameters and body fields to the store their id prefix names", () => {
    expect(model.pathResources.get("endpointStats")).toEqual({ endpointId: "Endpoint" });
    expect(model.bodyRefs.get("transferStatus")).toEqual([{ field: "transferId", resource: "Transfer" }]);
  });

  it("an operation that must name a resource of its store does not create one", () => {
    expect(model.schemas.Transfer).toMatchObject({ creatable: true, listed: true });
    const withoutCreate = resourceModel(
      doc,
      ops.filter((o) => o.spec.op.operationId !== "createTransfer"),
    );
    expect(withoutCreate.schemas.Transfer).toMatchObject({ creatable: false });
  });
});
