// Every console form says what is wrong when submitted empty (issue 38): the refusal names the field ("Email is
// required.", "Choose at least one scope."), no request is sent, and "The server could not be reached." never appears
// (it is kept for a request that failed). Money on the dashboard has its currency's decimals ($125.50). In Chromium,
// by accessible names, with the axe check of the other browser tests on the pages showing a refusal.
// Screenshots: test-results/console/forms-<page>-<width>.png.
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Browser, launchChromium } from "../helpers/chromium.ts";
import { checkPage, settled, watchPage } from "../helpers/console-pages.ts";
import { api, startTestServer, type TestServer } from "../helpers/test-server.ts";
import { freshTotp } from "../helpers/totp.ts";

const ORG = "org_console_forms";
const OWNER = { email: "olga@forms.example", name: "Olga Owner", password: "a-long-enough-password-1" };

let server: TestServer;
let browser: Browser;
let page: Page;
let watch: ReturnType<typeof watchPage>;
/** API requests the page sent since the last check. */
let sent: string[] = [];

beforeAll(async () => {
  server = await startTestServer();
  browser = await launchChromium();
  page = await browser.context.newPage();
  watch = watchPage(page);
  page.on("request", (req) => {
    if (new URL(req.url()).pathname.startsWith("/api/") && req.method() !== "GET") sent.push(`${req.method()} ${req.url()}`);
  });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const consoleUrl = (p: string) => `${server.url}/console${p}`;

async function nav(name: string) {
  const menu = page.getByRole("button", { name: "Menu" });
  if (await menu.isVisible()) await menu.click();
  await page.getByRole("navigation").getByRole("link", { name, exact: true }).click();
  await settled(page);
}

/** Submits with the button named `button` and expects one alert with exactly these words, no write sent. */
async function refused(scope: ReturnType<Page["locator"]> | Page, button: string, words: string[]) {
  sent = [];
  await scope.getByRole("button", { name: button, exact: true }).click();
  const alert = scope.getByRole("alert").filter({ hasText: words[0] as string });
  await alert.waitFor();
  const text = (await alert.textContent()) ?? "";
  for (const word of words) expect(text).toContain(word);
  expect(text).not.toContain("could not be reached");
  expect(sent).toEqual([]);
}

describe("forms submitted empty say which field is wrong", () => {
  it("sign-in: email and password", async () => {
    await page.goto(consoleUrl("/sign-in"));
    await settled(page);
    await refused(page, "Sign in", ["Email is required.", "Password is required."]);
    expect(await page.getByLabel("Email").getAttribute("aria-invalid")).toBe("true");
  });

  it("accepting the invitation: name and password; then the dashboard shows money with two decimals", async () => {
    const invited = await api(server.url, server.adminToken)("POST", `/api/admin/organizations/${ORG}/member-invitations`, {
      email: OWNER.email,
      role: "owner",
    });
    expect(invited.status, invited.text).toBe(201);
    await page.goto(consoleUrl(`/accept-invitation${new URL(invited.json.invitationUrl as string).hash}`));
    await settled(page);
    await refused(page, "Accept invitation", ["Name is required.", "Password is required."]);
    await page.getByLabel("Name").fill(OWNER.name);
    await page.getByLabel("Password").fill("short");
    await refused(page, "Accept invitation", ["Password needs at least 12 characters."]);
    await page.getByLabel("Password").fill(OWNER.password);
    await page.getByRole("button", { name: "Accept invitation" }).click();
    await page.waitForURL(/\/console\/sandbox\/dashboard$/);
    await settled(page);
    // The metrics arrive after the page settles (their own requests): wait for the first amount, then read them all.
    await page.locator(".metric .value", { hasText: /^\$/ }).first().waitFor();
    const values = await page.locator(".metric .value").allTextContents();
    const money = values.filter((v) => v.startsWith("$"));
    expect(money.length).toBeGreaterThan(0);
    for (const v of money) expect(v).toMatch(/^\$\d{1,3}(,\d{3})*\.\d{2}$/);
  });

  it("API keys: no scope chosen", async () => {
    await nav("API keys");
    const form = page.locator("form", { has: page.getByRole("heading", { name: "New key" }) });
    await refused(form, "Create key", ["Choose at least one scope."]);
    expect((await checkPage(page, "forms-api-keys")).flatMap((c) => [...c.violations, ...c.unreachable])).toEqual([]);
  });

  it("members: the invitation's email, and the authenticator's code", async () => {
    await nav("Members");
    const invite = page.locator("form", { has: page.getByRole("heading", { name: "Invite a member" }) });
    await refused(invite, "Invite", ["Email of the person to invite is required."]);
    await invite.getByLabel("Email of the person to invite").fill("not-an-email");
    await refused(invite, "Invite", ["Email of the person to invite must be a valid email address."]);
    await page.getByRole("button", { name: "Set up authenticator" }).click();
    await page.getByRole("img", { name: "QR code for your authenticator app" }).waitFor();
    await refused(page, "Confirm", ["Code from the app is required."]);
    // Axe only: the keyboard walk of this page is the journey's (test/browser/console-journey.test.ts), at rest.
    expect((await checkPage(page, "forms-members")).flatMap((c) => c.violations)).toEqual([]);
    // A right code still goes through (the refusal was the page's, not the server's).
    const secret = ((await page.locator(".secret").first().textContent()) ?? "").trim();
    await page.getByLabel("Code from the app").fill(await freshTotp(secret));
    await page.getByRole("button", { name: "Confirm" }).click();
    await page.getByRole("dialog", { name: "Recovery codes" }).waitFor();
  });

  it("webhooks: the URL, and at least one event type", async () => {
    await page.keyboard.press("Escape");
    await nav("Webhooks");
    const form = page.locator("form", { has: page.getByRole("heading", { name: "New endpoint" }) });
    await refused(form, "Create endpoint", ["URL is required."]);
    await form.getByLabel("URL").fill("https://hooks.example.com/coinplane");
    for (const box of await form.getByRole("checkbox", { checked: true }).all()) await box.uncheck();
    await refused(form, "Create endpoint", ["Choose at least one event type."]);
    expect((await checkPage(page, "forms-webhooks")).flatMap((c) => [...c.violations, ...c.unreachable])).toEqual([]);
  });

  it("a request that fails says so: the server stopped → could not be reached", async () => {
    const form = page.locator("form", { has: page.getByRole("heading", { name: "New endpoint" }) });
    await form.getByRole("checkbox").first().check();
    await page.route("**/api/v2/agent/webhook-endpoints", (route) => route.abort("connectionrefused"));
    await form.getByRole("button", { name: "Create endpoint" }).click();
    await form.getByRole("alert").filter({ hasText: "The server could not be reached." }).waitFor();
    await page.unroute("**/api/v2/agent/webhook-endpoints");
    expect(
      watch
        .take()
        .filter((p) => !p.includes("connectionrefused") && !p.includes("ERR_CONNECTION_REFUSED") && !p.includes("Failed to load resource")),
    ).toEqual([]);
  });
});
