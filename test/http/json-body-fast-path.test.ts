// The JSON body fast path (server/middleware/json-fast-path.ts, issue 39) through the whole app: a request with a
// Content-Length (the fast path when it is application/json in UTF-8 within the limit) and the same body sent chunked
// (always express.json) get the same status, error code and field paths. test/unit/json-fast-path.test.ts compares the
// parser's output with express.json's field by field.
import { request as httpRequest } from "node:http";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../helpers/test-server.ts";

const ORG = "org_json_fast_path";
const V1_POST = "/api/v1/wallets";
const V2_POST = "/api/v2/agent/payments/bank-transfer";

let server: TestServer;
let key: string;

beforeAll(async () => {
  server = await startTestServer();
  key = (await server.createKey({ organizationId: ORG, scopes: ["wallets:write", "payments:write"] })).key;
});
afterAll(() => server?.close());

interface Answer {
  status: number;
  code: unknown;
  paths: unknown;
}

/** POSTs `body` with a Content-Length, or chunked, and returns the status, error code and field paths. */
function post(path: string, body: string | Buffer, { chunked = false, headers = {} as Record<string, string>, authorized = true } = {}) {
  const bytes = typeof body === "string" ? Buffer.from(body) : body;
  const url = new URL(server.url);
  return new Promise<Answer>((resolve, reject) => {
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        path,
        method: "POST",
        agent: false,
        headers: {
          ...(authorized ? { authorization: `Bearer ${key}` } : {}),
          "content-type": "application/json",
          "idempotency-key": `fast-path-${Math.random().toString(36).slice(2)}`,
          ...(chunked ? { "transfer-encoding": "chunked" } : { "content-length": String(bytes.length) }),
          ...headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          const json = text ? JSON.parse(text) : undefined;
          resolve({
            status: res.statusCode ?? 0,
            code: json?.code,
            paths: json?.errors?.map((e: { path: string }) => e.path),
          });
        });
      },
    );
    req.on("error", reject);
    // Two writes, so the chunked variant really arrives in chunks.
    const half = Math.floor(bytes.length / 2);
    if (half > 0) req.write(bytes.subarray(0, half));
    req.end(bytes.subarray(half));
  });
}

async function bothWays(path: string, body: string | Buffer, options: { headers?: Record<string, string>; authorized?: boolean } = {}) {
  const withLength = await post(path, body, options);
  const chunked = await post(path, body, { ...options, chunked: true });
  expect(withLength).toEqual(chunked);
  return withLength;
}

describe("Content-Length and chunked bodies get the same answer", () => {
  it.each([
    ["a valid body", '{"chain":"base"}', 201, undefined],
    ["a valid body after a byte order mark", '\ufeff{"chain":"base"}', 201, undefined],
    ["malformed JSON", '{"chain":', 400, "invalid_request"],
    ["a top-level string (strict)", '"x"', 400, "invalid_request"],
    ["a top-level number (strict)", "1", 400, "invalid_request"],
    ["an empty body (Content-Length 0)", "", 400, "invalid_request"],
    ["a NUL character", '{"chain":"base","label":"a\\u0000b"}', 400, "invalid_request"],
    ["an unknown field", '{"chain":"base","colour":"red"}', 400, "invalid_request"],
  ])("v1: %s", async (_name, body, status, code) => {
    const answer = await bothWays(V1_POST, body);
    expect(answer.status).toBe(status);
    expect(answer.code).toBe(code);
  });

  it("v1: the body error names the field it found", async () => {
    expect((await bothWays(V1_POST, '{"chain":"base","label":"a\\u0000b"}')).paths).toEqual(["/body/label"]);
    expect((await bothWays(V1_POST, '{"chain":')).paths).toEqual(["/body"]);
  });

  it.each([
    ["malformed JSON", "{", 400, "VALIDATION_ERROR"],
    ["a top-level string (strict)", '"x"', 400, "VALIDATION_ERROR"],
  ])("v2: %s", async (_name, body, status, code) => {
    const answer = await bothWays(V2_POST, body);
    expect(answer).toMatchObject({ status, code });
  });

  it("without a key, a malformed body is answered 401 first", async () => {
    expect((await bothWays(V1_POST, "{", { authorized: false })).status).toBe(401);
  });
});

describe("the requests express.json keeps answer as before", () => {
  it("a body over the limit → 413", async () => {
    const body = JSON.stringify({ chain: "base", label: "x".repeat(server.config.bodyLimitBytes) });
    expect(await bothWays(V1_POST, body)).toMatchObject({ status: 413, code: "payload_too_large" });
  });

  it("charset=latin1 → 415", async () => {
    const headers = { "content-type": "application/json; charset=latin1" };
    expect(await bothWays(V1_POST, '{"chain":"base"}', { headers })).toMatchObject({ status: 415, code: "unsupported_media_type" });
  });

  it("charset=UTF-8 takes the fast path and is accepted", async () => {
    const headers = { "content-type": "application/json; charset=UTF-8" };
    expect((await bothWays(V1_POST, '{"chain":"base"}', { headers })).status).toBe(201);
  });

  it("a gzip body is inflated; a corrupt one → 400", async () => {
    const headers = { "content-encoding": "gzip" };
    expect((await bothWays(V1_POST, gzipSync('{"chain":"base"}'), { headers })).status).toBe(201);
    expect(await bothWays(V1_POST, gzipSync('{"chain":'), { headers })).toMatchObject({ status: 400, code: "invalid_request" });
    expect(await bothWays(V1_POST, '{"chain":"base"}', { headers })).toMatchObject({ status: 400, code: "invalid_request" });
  });
});
