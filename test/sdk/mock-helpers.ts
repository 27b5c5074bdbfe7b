// Shared by the partner mock's tests: requests built from the spec's examples (path parameters that name a resource set
// to an id the spec shows, so the mock knows it), sent through msw or HTTP with the mock's sandbox test key, and checked
// against the spec.
import { expect } from "vitest";
import { mockData } from "../../sdk/src/generated/mock-data.ts";
import { mockApiKeys } from "../../sdk/src/mock/index.ts";
import { loadSpec } from "../../server/spec/load-spec.ts";
import { exampleRequest, type SpecOperation, specOperations } from "../helpers/spec-requests.ts";
import { SpecValidator } from "./spec-validator.ts";

export const doc = loadSpec();
export const validator = new SpecValidator(doc);
export const specOps = new Map(specOperations(doc).map((op) => [op.operation.operationId, op]));
export const specOp = (id: string) => specOps.get(id) as SpecOperation;

export interface Sent {
  status: number;
  contentType: string | null;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: tests assert on arbitrary bodies
  body: any;
}

/** `send(method, path, body?, headers?)` against a base URL, with the sandbox test key unless `authorization` is given. */
export function sender(base: string, key: string = mockApiKeys.sandbox) {
  return async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Sent> => {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body !== undefined ? { "content-type": "application/json" } : {}), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return {
      status: res.status,
      contentType: res.headers.get("content-type"),
      headers: res.headers,
      body: text ? JSON.parse(text) : undefined,
    };
  };
}

export function expectValid(op: SpecOperation, res: Sent) {
  const problems = validator.check(op.operation.method, op.operation.pathTemplate, res.status, res.contentType, res.body);
  expect(problems, `${op.operation.operationId} ${res.status}: ${JSON.stringify(res.body)}`).toEqual([]);
  expect(res.headers.get("x-request-id")).toBeTruthy();
}

/** What a member's operation (security `session`) is called with: the mock keeps no people, so any
 * `__Host-cp_session` cookie stands for a signed-in owner. Nothing for the other operations. */
export function sessionFor(op: SpecOperation): Record<string, string> {
  return op.operation.security === "session" ? { cookie: "__Host-cp_session=cps_mock" } : {};
}

/** The spec's example request, with path parameters that name a resource set to an id of the spec's examples (or to
 * `ids[name]` when given). */
export function mockExampleRequest(op: SpecOperation, ids: Record<string, string> = {}) {
  const req = exampleRequest(doc, op);
  const spec = mockData.operations.find((o) => o.operationId === op.operation.operationId);
  let path = op.operation.pathTemplate;
  const actual = req.path.split("?")[0]?.split("/") ?? [];
  path.split("/").forEach((segment, i) => {
    const name = /^\{(.+)\}$/.exec(segment)?.[1];
    if (!name) return;
    const resource = spec?.params.find((p) => p.name === name)?.resource;
    const id = ids[name] ?? (resource ? mockData.schemas[resource]?.exampleIds?.[0] : undefined);
    path = path.replace(segment, id ?? (actual[i] as string));
  });
  const query = req.path.includes("?") ? `?${req.path.split("?")[1]}` : "";
  return { ...req, path: `${path}${query}` };
}
