// staticHeaders(helmet()) answers with exactly the headers helmet() itself sets (server/http/static-headers.ts).
import type { AddressInfo } from "node:net";
import express, { type RequestHandler } from "express";
import helmet from "helmet";
import { describe, expect, it } from "vitest";
import { staticHeaders } from "../../server/http/static-headers.ts";

async function headersOf(middleware: RequestHandler): Promise<Record<string, string>> {
  const app = express();
  app.use(middleware);
  app.get("/", (_req, res) => {
    res.json({ ok: true });
  });
  const server = app.listen(0, "127.0.0.1");
  await new Promise<void>((resolve) => server.once("listening", () => resolve()));
  try {
    const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    const headers = Object.fromEntries(res.headers);
    delete headers.date;
    return headers;
  } finally {
    server.close();
  }
}

describe("staticHeaders", () => {
  it("sets and removes what helmet() does", async () => {
    const expected = await headersOf(helmet());
    expect(expected["content-security-policy"]).toBeDefined();
    expect(expected["x-powered-by"]).toBeUndefined();
    expect(await headersOf(staticHeaders(helmet()))).toEqual(expected);
  });

  it("refuses a middleware that does not decide at once", () => {
    expect(() => staticHeaders((_req, _res, next) => setTimeout(next))).toThrow(/synchronously/);
  });
});
