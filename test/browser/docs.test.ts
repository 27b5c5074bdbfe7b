// The docs portal renders in Chromium: built from the current spec (npm run docs), served at GET /docs by the real
// server, every v1, v2 and metrics operation listed, the getting-started and webhooks guides present, an operation's
// code samples shown whole (no line cut off at the panel's edge), no console error or warning — Redocly's telemetry,
// which the CSP blocks, is off; the page is watched long enough for its batched traces to have been sent.
// Debian's Chromium (/usr/bin/chromium, installed by scripts/ensure-chromium.sh) driven by playwright-core.
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { type BrowserContext, chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildDocs } from "../../scripts/build-docs.ts";
import { loadSpec } from "../../server/spec/load-spec.ts";
import { specOperations } from "../helpers/spec-requests.ts";
import { startTestServer, type TestServer } from "../helpers/test-server.ts";

const CHROMIUM = "/usr/bin/chromium";

// The page's DOM as far as the callbacks that run in the browser use it (this project compiles without the DOM lib).
interface PageElement {
  textContent: string | null;
  parentElement: PageElement | null;
  scrollWidth: number;
  clientWidth: number;
  querySelectorAll(selector: string): Iterable<PageElement>;
  setAttribute(name: string, value: string): void;
  getBoundingClientRect(): { height: number };
}
declare const document: { querySelectorAll(selector: string): Iterable<PageElement> };
const SCREENSHOT = path.resolve("test-results/docs.png");

const operations = specOperations(loadSpec()).filter((op) => ["v1", "v2", "metric"].includes(op.operation.surface));

let server: TestServer;
let browser: BrowserContext;
let userDataDir: string;
const consoleErrors: string[] = [];
let pageText = "";
let operationText = "";
let sampleLanguages: string[] = [];
let clippedBlocks: string[] = [];
let status = 0;
let csp = "";

beforeAll(async () => {
  buildDocs();
  server = await startTestServer();
  userDataDir = mkdtempSync(path.join(tmpdir(), "coinplane-chromium-"));
  // A fresh profile per run (launchPersistentContext passes it as --user-data-dir).
  browser = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1400, height: 1000 },
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  const page = await browser.newPage();
  page.on("console", (msg) => {
    if (msg.type() === "error" || msg.type() === "warning") consoleErrors.push(`${msg.type()}: ${msg.text()}`);
  });
  page.on("pageerror", (err) => consoleErrors.push(`pageerror: ${err.message}`));
  const response = await page.goto(`${server.url}/docs`, { waitUntil: "load" });
  status = response?.status() ?? 0;
  csp = (await response?.headerValue("content-security-policy")) ?? "";
  // Redoc hydrates the prerendered page; wait for its navigation, then let late errors surface.
  await page.waitForSelector(".menu-content", { timeout: 30_000 });
  await page.waitForTimeout(1500);
  pageText = (await page.textContent("body")) ?? "";
  // One operation, as a reader opens it from the navigation: its code samples panel.
  await page.getByText("Cards", { exact: true }).first().click();
  await page.getByText("Fund a card", { exact: true }).first().click();
  await page.waitForFunction(
    () => [...document.querySelectorAll("pre")].some((pre) => pre.textContent?.includes("/cards/$CARD_ID/fund")),
    null,
    {
      timeout: 30_000,
    },
  );
  operationText = (await page.textContent("body")) ?? "";
  // The sample's language menu (curl / SDK): open it and read its entries.
  await page.evaluate(() => {
    const pre = [...document.querySelectorAll("pre")].find((p) => p.textContent?.includes("/cards/$CARD_ID/fund"));
    const languageMenu = (el: PageElement) =>
      [...el.querySelectorAll('button[aria-haspopup="menu"]')].find((b) => b.textContent?.trim() === "curl");
    let panel = pre?.parentElement;
    while (panel && !languageMenu(panel)) panel = panel.parentElement;
    if (panel) languageMenu(panel)?.setAttribute("data-test", "sample-language");
  });
  await page.click('[data-test="sample-language"]');
  sampleLanguages = (await page.getByRole("menuitem").allTextContents()).map((text) => text.trim());
  await page.keyboard.press("Escape");
  // Every code block on screen shows its whole width (a hidden overflow is a line cut off at the edge).
  clippedBlocks = await page.evaluate(() =>
    [...document.querySelectorAll("pre")]
      .filter((pre) => pre.getBoundingClientRect().height > 0 && pre.scrollWidth > pre.clientWidth + 1)
      .map((pre) => (pre.textContent ?? "").slice(0, 80)),
  );
  // Redocly's tracer sends in batches a few seconds apart: give a blocked send time to show in the console.
  await page.waitForTimeout(6_000);
  mkdirSync(path.dirname(SCREENSHOT), { recursive: true });
  await page.screenshot({ path: SCREENSHOT });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  if (userDataDir) rmSync(userDataDir, { recursive: true, force: true });
});

describe("GET /docs in Chromium", () => {
  it("answers 200 with a CSP that allows no other origin", () => {
    expect(status).toBe(200);
    expect(csp).toContain("default-src 'self'");
    expect(csp).not.toMatch(/https?:/);
  });

  it("lists the v1, v2 and metrics operations (the spec has each surface)", () => {
    for (const surface of ["v1", "v2", "metric"]) expect(operations.some((op) => op.operation.surface === surface)).toBe(true);
  });

  it.each(operations.map((op) => [`${op.operation.method} ${op.operation.pathTemplate}`, op] as const))("lists %s", (_label, op) => {
    const summary = String(op.raw.summary ?? "");
    expect(summary).not.toBe("");
    expect(pageText).toContain(summary);
    expect(pageText).toContain(op.operation.pathTemplate);
  });

  it("has the getting-started sections", () => {
    for (const section of [
      "Keys and environments",
      "Run the samples",
      "Idempotency",
      "Rate limits",
      "Simulators and magic values",
      "SDK quick start",
      "Compatibility and deprecation",
      "Partner mock",
    ]) {
      expect(pageText).toContain(section);
    }
    expect(pageText).toContain("666.66");
  });

  it("has the webhooks guide with its event catalogue", () => {
    for (const section of ["Receive and verify", "Retries, duplicates and ordering", "Rotating the secret", "Event catalogue"]) {
      expect(pageText).toContain(section);
    }
    expect(pageText).toContain("express.raw");
  });

  it("shows an operation's curl sample with the setup's placeholders, and its SDK sample in the language menu", () => {
    expect(operationText).toContain('"$COINPLANE_URL/api/v2/agent/cards/$CARD_ID/fund"');
    expect(operationText).toContain("Idempotency-Key: $(openssl rand -hex 16)");
    expect(sampleLanguages).toEqual(expect.arrayContaining(["curl", "SDK"]));
  });

  // The error responses are shared per status; which codes this operation answers is its `x-error-codes` (Redoc
  // `showExtensions`, scripts/build-docs.ts), shown under its title.
  it("shows the error codes the operation answers (x-error-codes)", () => {
    expect(operationText).toContain("error-codes");
    expect(operationText).toMatch(
      /"409":\s*\["CARD_INSUFFICIENT_FUNDS","CARD_LEDGER_CONFLICT","CARD_RECORD_CONFLICT","IDEMPOTENCY_IN_PROGRESS"\]/,
    );
  });

  it("cuts no code block off at its edge", () => {
    expect(clippedBlocks).toEqual([]);
  });

  it("renders the servers' descriptions as plain text (no markdown in them)", () => {
    for (const server of loadSpec().servers as Array<{ description?: string }>) {
      expect(server.description ?? "").not.toMatch(/[`*_[\]]/);
      expect(pageText).toContain(server.description);
    }
  });

  it("logs no console error or warning", () => {
    expect(consoleErrors).toEqual([]);
  });
});
