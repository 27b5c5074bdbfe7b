// sendText/sendJson (server/http/send-text.ts) write what Express's res.send/res.json write: the same status line,
// headers and body bytes, for the cases the fast path takes and for those it hands back to Express.
import { once } from "node:events";
import http from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sendJson, sendText } from "../../server/http/send-text.ts";

let server: http.Server;
let port: number;

beforeAll(async () => {
  const app = express();
  app.set("etag", false);
  const status = (req: express.Request) => Number(req.query.status ?? 200);
  const type = (req: express.Request) => String(req.query.type ?? "application/json");
  app.all("/express/text", (req, res) => {
    res.status(status(req)).type(type(req)).send('{"amount":"12.50","note":"café ✓"}');
  });
  app.all("/fast/text", (req, res) => sendText(req, res, status(req), type(req), '{"amount":"12.50","note":"café ✓"}'));
  app.all("/express/json", (req, res) => {
    if (req.query.preset) res.setHeader("Content-Type", "application/vnd.example+json");
    res.status(status(req)).json({ id: "wal_1", labels: ["ü", "✓"] });
  });
  app.all("/fast/json", (req, res) => {
    if (req.query.preset) res.setHeader("Content-Type", "application/vnd.example+json");
    sendJson(req, res, status(req), { id: "wal_1", labels: ["ü", "✓"] });
  });
  server = app.listen(0, "127.0.0.1");
  await once(server, "listening");
  port = (server.address() as AddressInfo).port;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** The raw answer: status, headers (without Date), body bytes. */
async function raw(method: string, path: string, headers: Record<string, string> = {}) {
  const req = http.request({ host: "127.0.0.1", port, method, path, headers, agent: false });
  req.end();
  const [res] = (await once(req, "response")) as [http.IncomingMessage];
  const chunks: Buffer[] = [];
  for await (const chunk of res) chunks.push(chunk as Buffer);
  const { date: _date, ...rest } = res.headers;
  return { status: res.statusCode, headers: rest, body: Buffer.concat(chunks).toString("hex") };
}

describe("sendText writes what res.status().type().send() writes", () => {
  it.each([
    { method: "GET", query: "", headers: {}, why: "a 200 JSON answer (fast path)" },
    { method: "POST", query: "?status=201", headers: {}, why: "a 201 (fast path)" },
    { method: "POST", query: "?status=409&type=application/problem%2Bjson", headers: {}, why: "a problem+json error (fast path)" },
    { method: "HEAD", query: "", headers: {}, why: "HEAD: headers without the body (fast path)" },
    { method: "POST", query: "?status=204", headers: {}, why: "a 204 (Express strips the body)" },
    { method: "GET", query: "", headers: { "if-none-match": "*" }, why: "If-None-Match: * (Express answers 304)" },
    { method: "GET", query: "", headers: { "if-modified-since": "Sun, 06 Dec 2026 10:00:00 GMT" }, why: "If-Modified-Since" },
    { method: "GET", query: "?type=application/json;%20charset=utf-8", headers: {}, why: "a media type with its charset (fast path)" },
    { method: "GET", query: "?type=application/json;%20charset=UTF-8", headers: {}, why: "a charset written otherwise (Express)" },
    { method: "GET", query: "?type=text/plain;%20format=flowed", headers: {}, why: "another parameter (Express)" },
    { method: "GET", query: "?type=json", headers: {}, why: "an extension Express looks up" },
  ] as { method: string; query: string; headers: Record<string, string>; why: string }[])("$why", async ({ method, query, headers }) => {
    const expected = await raw(method, `/express/text${query}`, headers);
    const actual = await raw(method, `/fast/text${query}`, headers);
    expect(actual).toEqual(expected);
  });
});

describe("sendJson writes what res.status().json() writes", () => {
  it.each([
    { method: "GET", query: "", why: "a 200 (fast path)" },
    { method: "HEAD", query: "", why: "HEAD (fast path)" },
    { method: "GET", query: "?preset=1", why: "a Content-Type the handler set (Express keeps it)" },
  ])("$why", async ({ method, query }) => {
    const expected = await raw(method, `/express/json${query}`);
    const actual = await raw(method, `/fast/json${query}`);
    expect(actual).toEqual(expected);
  });
});
