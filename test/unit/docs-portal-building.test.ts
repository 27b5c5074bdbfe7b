// GET /docs before the portal exists (server/http/docs-portal.ts): 404 with how to build it, or — while a first
// `npm start` builds it beside the server (scripts/ensure-start-builds.ts, a `portal.building-*` folder) — 503 with
// Retry-After, so a reader who opens /docs right after the start is told to wait, not that it is missing.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import express from "express";
import { afterAll, describe, expect, it } from "vitest";
import { docsPortal } from "../../server/http/docs-portal.ts";

const docs = mkdtempSync(path.join(tmpdir(), "coinplane-portal-"));
const file = path.join(docs, "portal", "index.html");
const app = express().get("/docs", docsPortal(file));
const server = app.listen(0, "127.0.0.1");
afterAll(() => {
  server.close();
  rmSync(docs, { recursive: true, force: true });
});
const get = () => fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/docs`);

describe("GET /docs before the portal exists", () => {
  it("answers 404 with how to build it when no build is under way", async () => {
    const res = await get();
    expect(res.status).toBe(404);
    expect(await res.text()).toMatch(/npm run build/);
  });

  it("answers 503 with Retry-After while a start builds it, then the portal", async () => {
    mkdirSync(path.join(docs, "portal.building-abc123"));
    const res = await get();
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe("5");
    expect(await res.text()).toMatch(/being built/);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, "<html><body>portal</body></html>");
    rmSync(path.join(docs, "portal.building-abc123"), { recursive: true });
    expect((await get()).status).toBe(200);
  });
});
