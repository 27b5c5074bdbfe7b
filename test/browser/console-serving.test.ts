// The console as the server serves it, before anyone signs in: GET /console… answers the built app with a strict
// Content-Security-Policy (no inline script, no eval, this origin only), every deep link answers the app, hashed assets
// are immutable, the initial JavaScript is ≤ 200 KB gzipped; in Chromium the sign-in and invitation pages pass axe,
// keyboard and console checks at 390 and 1440 px, and a year of daily points charts within 100 ms.
import { gzipSync } from "node:zlib";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Browser, launchChromium } from "../helpers/chromium.ts";
import { checkPage, settled, watchPage } from "../helpers/console-pages.ts";
import { startTestServer, type TestServer } from "../helpers/test-server.ts";

let server: TestServer;
let browser: Browser;
let page: Page;
let watch: ReturnType<typeof watchPage>;

beforeAll(async () => {
  server = await startTestServer();
  browser = await launchChromium();
  page = await browser.context.newPage();
  watch = watchPage(page);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

async function get(path: string) {
  const res = await fetch(`${server.url}${path}`);
  return { status: res.status, headers: res.headers, body: Buffer.from(await res.arrayBuffer()) };
}

describe("GET /console", () => {
  it("answers the app on every deep link, with a CSP that allows no inline script, no eval and no other origin", async () => {
    for (const path of [
      "/console",
      "/console/",
      "/console/sign-in",
      "/console/sandbox/dashboard",
      "/console/production/cards/card_123",
      "/console/accept-invitation",
    ]) {
      const res = await get(path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get("content-type")).toMatch(/^text\/html/);
      const csp = res.headers.get("content-security-policy") ?? "";
      expect(csp).toContain("default-src 'self'");
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).not.toMatch(/unsafe-eval|unsafe-inline|https?:/);
      expect(res.body.toString()).toContain('<div id="root">');
    }
  });

  it("has no inline script in the page, and its initial JavaScript is at most 200 KB gzipped", async () => {
    const html = (await get("/console/sandbox/dashboard")).body.toString();
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    const initial = [...html.matchAll(/<script[^>]+src="([^"]+)"|<link[^>]+rel="modulepreload"[^>]+href="([^"]+)"/g)].map(
      (m) => m[1] ?? m[2] ?? "",
    );
    expect(initial.length).toBeGreaterThan(0);
    let gzipped = 0;
    for (const src of initial) {
      const asset = await get(src);
      expect(asset.status, src).toBe(200);
      expect(asset.headers.get("cache-control")).toContain("immutable");
      gzipped += gzipSync(asset.body).length;
    }
    expect(gzipped).toBeLessThanOrEqual(200 * 1024);
  });

  it("answers 404 for an asset that does not exist (not the app)", async () => {
    const res = await get("/console/assets/nothing-here.js");
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toMatch(/^text\/plain/);
  });
});

describe("the console's public pages in Chromium", () => {
  it("sign-in: named fields and button, axe, keyboard and no console error at both widths", async () => {
    await page.goto(`${server.url}/console/sign-in`);
    await expect(page.getByLabel("Email").count()).resolves.toBe(1);
    await expect(page.getByLabel("Password").count()).resolves.toBe(1);
    await expect(page.getByRole("button", { name: "Sign in" }).count()).resolves.toBe(1);
    const checks = await checkPage(page, "sign-in");
    for (const check of checks) {
      expect(check.violations, `${check.width}px`).toEqual([]);
      expect(check.unreachable, `${check.width}px`).toEqual([]);
      expect(check.overflow, `${check.width}px`).toBeLessThanOrEqual(0);
    }
    expect(watch.take()).toEqual([]);
  }, 120_000);

  it("sign-in: a wrong password shows the server's answer and stays on the page", async () => {
    await page.goto(`${server.url}/console/sign-in`);
    await page.getByLabel("Email").fill("nobody@example.com");
    await page.getByLabel("Password").fill("not-the-password");
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("alert").waitFor();
    expect(page.url()).toContain("/console/sign-in");
    // The refused sign-in is the one failed request (Chromium logs it to the console as well).
    const refused = watch.takeBesides(`${server.url}/api/v2/agent/sessions`);
    expect(refused.others).toEqual([]);
    expect(refused.expected).toContain(`HTTP 401: POST ${server.url}/api/v2/agent/sessions`);
  });

  it("accept-invitation: without a token it says what is missing; with one it asks for a name and a password", async () => {
    await page.goto(`${server.url}/console/accept-invitation`);
    await page.getByRole("alert").waitFor();
    await page.goto(`${server.url}/console/accept-invitation#token=cpi_example`);
    await page.getByRole("button", { name: "Accept invitation" }).waitFor();
    expect(await page.getByLabel("Name").count()).toBe(1);
    const checks = await checkPage(page, "accept-invitation");
    for (const check of checks) {
      expect(check.violations, `${check.width}px`).toEqual([]);
      expect(check.unreachable, `${check.width}px`).toEqual([]);
    }
    expect(watch.take()).toEqual([]);
  }, 120_000);

  it("a signed-out visit to a page goes to sign-in and remembers where it was going", async () => {
    await page.goto(`${server.url}/console/sandbox/approvals?status=approved`);
    await page.waitForURL(/\/console\/sign-in\?next=/);
    // The session check that found no session is the one refused request.
    const signedOut = watch.takeBesides(`${server.url}/api/v2/agent/sessions/current`);
    expect(signedOut.others).toEqual([]);
    expect(signedOut.expected).toContain(`HTTP 401: GET ${server.url}/api/v2/agent/sessions/current`);
    expect(new URL(page.url()).searchParams.get("next")).toBe("/sandbox/approvals?status=approved");
  });

  it("draws a 1-year chart of daily points within 100 ms", async () => {
    await page.goto(`${server.url}/console/bench/chart`);
    await settled(page);
    await page.waitForFunction(
      () => !Number.isNaN(Number.parseFloat(document.querySelector('[data-testid="chart-ms"]')?.textContent ?? "")),
    );
    const ms = Number.parseFloat((await page.getByTestId("chart-ms").textContent()) ?? "");
    expect(ms).toBeGreaterThan(0);
    expect(ms).toBeLessThan(100);
    expect(watch.take()).toEqual([]);
  });
});

declare const document: { querySelector(s: string): { textContent: string | null } | null };
