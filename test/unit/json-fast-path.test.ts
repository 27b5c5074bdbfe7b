// The JSON body fast path (server/middleware/json-fast-path.ts, issue 39) answers every request exactly as express.json
// (body-parser) does: the same request bytes are sent to jsonBodyParser and to a bare express.json with the same
// options, and the parsed body or the error (name, message, status, expose, type and raw-body's fields) must be equal,
// as must the code our error handler maps it to. Each case also states whether the fast path took it.
import { EventEmitter } from "node:events";
import { request as httpRequest } from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";
import { gzipSync } from "node:zlib";
import express, { type Request, type RequestHandler } from "express";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { toServiceError } from "../../server/errors/to-service-error.ts";
import { jsonBodyParser } from "../../server/middleware/body-parser.ts";
import { fastPathLength, readJsonBody } from "../../server/middleware/json-fast-path.ts";

const LIMIT = 1024;
const OPTIONS = { limit: LIMIT, strict: true, type: ["application/json", "application/*+json"] };

const ERROR_FIELDS = [
  "name",
  "message",
  "status",
  "statusCode",
  "expose",
  "type",
  "code",
  "expected",
  "length",
  "received",
  "limit",
  "body",
  "charset",
  "encoding",
];

function describeError(error: unknown) {
  if (error === undefined) return undefined;
  const fields = Object.fromEntries(ERROR_FIELDS.map((key) => [key, (error as Record<string, unknown>)[key]]));
  const { error: mapped } = toServiceError(error);
  return { ...fields, mapped: { status: mapped.status, code: mapped.code, message: mapped.message } };
}

interface Outcome {
  hasBody: boolean;
  body: unknown;
  error: ReturnType<typeof describeError>;
  fast?: boolean;
}

const results = new Map<string, Outcome>();
const record = (req: Request, outcome: Outcome) => results.set(String(req.headers["x-case"]), outcome);

let port: number;
let close: () => Promise<void>;

beforeAll(async () => {
  const app = express();
  app.use((req, _res, next) => {
    req.ctx = {} as Request["ctx"];
    next();
  });
  const ours = jsonBodyParser(LIMIT);
  const theirs = express.json(OPTIONS);
  const answer: RequestHandler = (req, res) => {
    const outcome = results.get(String(req.headers["x-case"]));
    if (!res.destroyed) res.json(outcome ?? null);
  };
  app.all(
    "/new",
    (req, res, next) => {
      const fast = fastPathLength(req, LIMIT) !== -1;
      ours(req, res, () => {
        record(req, { hasBody: "body" in req, body: req.body, error: describeError(req.ctx.bodyError), fast });
        next();
      });
    },
    answer,
  );
  app.all(
    "/old",
    (req, res, next) => {
      theirs(req, res, (error?: unknown) => {
        record(req, { hasBody: "body" in req, body: req.body, error: describeError(error || undefined) });
        next();
      });
    },
    answer,
  );
  const listener = app.listen(0, "127.0.0.1");
  await new Promise<void>((resolve) => listener.once("listening", () => resolve()));
  port = (listener.address() as AddressInfo).port;
  close = () =>
    new Promise<void>((resolve) => {
      listener.close(() => resolve());
      listener.closeAllConnections();
    });
});
afterAll(() => close?.());

interface Send {
  /** POST unless given; a GET or DELETE without a body is sent with neither Content-Length nor Transfer-Encoding. */
  method?: "POST" | "GET" | "DELETE";
  headers?: Record<string, string>;
  body: Buffer | string;
  /** Omit Content-Length: Node sends the body chunked. */
  chunked?: boolean;
  /** Write the body in this many pieces (a multi-byte character may straddle two). */
  pieces?: number;
}

let caseNumber = 0;

async function send(path: "/new" | "/old", { method = "POST", headers = {}, body, chunked, pieces = 1 }: Send): Promise<Outcome> {
  const id = `case-${++caseNumber}`;
  const bytes = typeof body === "string" ? Buffer.from(body) : body;
  const framing = method !== "POST" ? {} : chunked ? { "transfer-encoding": "chunked" } : { "content-length": String(bytes.length) };
  const all = { "x-case": id, ...framing, ...headers };
  await new Promise<void>((resolve, reject) => {
    const req = httpRequest({ host: "127.0.0.1", port, path, method, headers: all, agent: false }, (res) => {
      res.resume();
      res.on("end", () => resolve());
    });
    req.on("error", reject);
    const size = Math.ceil(bytes.length / pieces) || 1;
    for (let at = 0; at < bytes.length; at += size) req.write(bytes.subarray(at, at + size));
    req.end();
  });
  return results.get(id) as Outcome;
}

async function compare(request: Send, fast: boolean) {
  const ours = await send("/new", request);
  const theirs = await send("/old", request);
  expect(ours.fast).toBe(fast);
  const { fast: _fast, ...rest } = ours;
  expect(rest).toEqual(theirs);
  return ours;
}

const JSON_TYPE = { "content-type": "application/json" };

describe("the fast path answers as express.json", () => {
  it.each([
    ["an object", '{"chain":"base","n":[1,2.5,null,true]}'],
    ["an array", "[1,2]"],
    ["leading whitespace", ' \t\r\n {"a":1}'],
    ["a byte order mark", '\ufeff{"a":1}'],
    ["multi-byte characters", '{"name":"Zoë ☃ 😀"}'],
    ["an empty body (Content-Length 0) → {}", ""],
    ["malformed JSON", '{"chain":'],
    ["a trailing comma", '{"a":1,}'],
    ["single quotes", "{'a':1}"],
    ["a top-level string (strict)", '"x"'],
    ["a top-level number (strict)", "1"],
    ["a top-level null (strict)", "null"],
    ["a top-level string after whitespace (strict)", '  \n "x"'],
    ["only whitespace (strict)", "   "],
    ["a byte order mark before a string (strict)", '\ufeff"x"'],
    ["two byte order marks", "\ufeff\ufeff{}"],
    ["a body of exactly the limit", `{"a":"${"x".repeat(LIMIT - 8)}"}`],
  ])("%s", async (_name, body) => {
    expect(Buffer.byteLength(body)).toBeLessThanOrEqual(LIMIT);
    await compare({ headers: JSON_TYPE, body }, true);
  });

  it("invalid UTF-8 is decoded to U+FFFD the same way", async () => {
    const body = Buffer.concat([Buffer.from('{"a":"'), Buffer.from([0xff, 0xe2, 0x82, 0xed, 0xa0, 0x80]), Buffer.from('"}')]);
    expect((await compare({ headers: JSON_TYPE, body }, true)).body).toEqual({ a: expect.stringContaining("\ufffd") });
  });

  it("a multi-byte character split between two writes", async () => {
    const ours = await compare({ headers: JSON_TYPE, body: '{"s":"😀😀😀😀"}', pieces: 3 }, true);
    expect(ours.body).toEqual({ s: "😀😀😀😀" });
  });

  it.each([
    ["charset=utf-8", "application/json; charset=utf-8"],
    ["charset=UTF-8", "application/json; charset=UTF-8"],
    ["Content-Encoding: identity", "application/json", { "content-encoding": "identity" }],
    ["Content-Encoding: IDENTITY", "application/json", { "content-encoding": "IDENTITY" }],
  ] as Array<[string, string, Record<string, string>?]>)("%s takes the fast path", async (_name, type, extra = {}) => {
    await compare({ headers: { "content-type": type, ...extra }, body: '{"a":1}' }, true);
    await compare({ headers: { "content-type": type, ...extra }, body: '"a"' }, true);
  });
});

describe("a request without a body (neither Content-Length nor Transfer-Encoding) is skipped as express.json skips it", () => {
  it.each([
    ["GET", { method: "GET", body: "" }],
    ["GET with a JSON content type", { method: "GET", headers: JSON_TYPE, body: "" }],
    ["DELETE", { method: "DELETE", body: "" }],
  ] as Array<[string, Send]>)("%s", async (_name, request) => {
    const ours = await compare(request, false);
    expect(ours).toMatchObject({ hasBody: true, body: undefined, error: undefined });
  });
});

describe("everything else goes to express.json", () => {
  it.each([
    ["chunked", { headers: JSON_TYPE, body: '{"a":1}', chunked: true }],
    ["chunked, malformed", { headers: JSON_TYPE, body: '{"a":', chunked: true }],
    ["a declared length over the limit → 413", { headers: JSON_TYPE, body: `{"a":"${"x".repeat(LIMIT)}"}` }],
    ["chunked over the limit → 413", { headers: JSON_TYPE, body: `{"a":"${"x".repeat(LIMIT)}"}`, chunked: true }],
    ["charset=latin1 → 415", { headers: { "content-type": "application/json; charset=latin1" }, body: '{"a":1}' }],
    ["charset=utf8 (no hyphen) → 415", { headers: { "content-type": "application/json; charset=utf8" }, body: '{"a":1}' }],
    ["charset=utf-16le", { headers: { "content-type": "application/json; charset=utf-16le" }, body: Buffer.from('{"a":1}', "utf16le") }],
    ["a quoted charset", { headers: { "content-type": 'application/json; charset="utf-8"' }, body: '{"a":1}' }],
    ["no space before the charset", { headers: { "content-type": "application/json;charset=utf-8" }, body: '{"a":1}' }],
    ["a +json type", { headers: { "content-type": "application/merge-patch+json" }, body: '{"a":1}' }],
    ["text/plain (left unparsed)", { headers: { "content-type": "text/plain" }, body: '{"a":1}' }],
    ["no content type (left unparsed)", { headers: {}, body: '{"a":1}' }],
    ["gzip", { headers: { ...JSON_TYPE, "content-encoding": "gzip" }, body: gzipSync('{"a":1}') }],
    ["gzip, malformed", { headers: { ...JSON_TYPE, "content-encoding": "gzip" }, body: gzipSync('{"a":') }],
    ["a corrupt gzip body", { headers: { ...JSON_TYPE, "content-encoding": "gzip" }, body: '{"a":1}' }],
    ["an unknown content encoding → 415", { headers: { ...JSON_TYPE, "content-encoding": "compress" }, body: '{"a":1}' }],
  ] as Array<[string, Send]>)("%s", async (_name, request) => {
    await compare(request, false);
  });
});

describe("the fast path and the chunked path of jsonBodyParser agree", () => {
  it.each(['{"a":1}', "", '{"a":', '"x"', "1"])("%j", async (body) => {
    const fast = await send("/new", { headers: JSON_TYPE, body });
    const chunked = await send("/new", { headers: JSON_TYPE, body, chunked: true });
    expect(fast.fast).toBe(true);
    expect(chunked.fast).toBe(false);
    expect({ ...fast, fast: undefined }).toEqual({ ...chunked, fast: undefined });
  });
});

describe("a body cut short", () => {
  it("a connection closed mid-body gives raw-body's request.aborted error", async () => {
    const cut = async (path: "/new" | "/old") => {
      const id = `cut-${path}`;
      const req = httpRequest({
        host: "127.0.0.1",
        port,
        path,
        method: "POST",
        agent: false,
        headers: { ...JSON_TYPE, "content-length": "100", "x-case": id },
      });
      req.on("error", () => {});
      req.write('{"a":"0123');
      await vi.waitFor(() => expect(req.socket).toBeDefined());
      await new Promise((resolve) => setTimeout(resolve, 50));
      req.destroy();
      await vi.waitFor(() => expect(results.get(id)).toBeDefined());
      return results.get(id) as Outcome;
    };
    const ours = await cut("/new");
    const theirs = await cut("/old");
    expect(ours.fast).toBe(true);
    expect(ours.error).toMatchObject({ type: "request.aborted", status: 400, expected: 100, received: 10 });
    expect({ ...ours, fast: undefined }).toEqual({ ...theirs, fast: undefined });
  });

  it("a stream that ends before its Content-Length gives raw-body's request.size.invalid error", async () => {
    // As Node's parser would leave it after 7 of 10 bytes: complete set just before the stream ends.
    const fakeRequest = () =>
      Object.assign(new Readable({ read() {} }), {
        headers: { "content-type": "application/json", "content-length": "10" },
        socket: Object.assign(new EventEmitter(), { readable: true }),
        complete: false,
      });
    const endEarly = (req: ReturnType<typeof fakeRequest>) => {
      req.push('{"a":1}');
      req.complete = true;
      req.push(null);
    };
    const ours = fakeRequest();
    expect(fastPathLength(ours as never, LIMIT)).toBe(10);
    const ourError = new Promise((resolve) => readJsonBody(ours as never, 10, (error) => resolve(error)));
    endEarly(ours);
    const theirs = fakeRequest();
    const theirError = new Promise((resolve) => express.json(OPTIONS)(theirs as never, {} as never, (error?: unknown) => resolve(error)));
    endEarly(theirs);
    const [a, b] = [describeError(await ourError), describeError(await theirError)];
    expect(a).toMatchObject({ type: "request.size.invalid", status: 400, expected: 10, received: 7 });
    expect(a).toEqual(b);
  });
});
