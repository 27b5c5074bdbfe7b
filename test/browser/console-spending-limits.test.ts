// Spending limits in the console (issue 37) in Chromium against a real server: an owner creates an agent's key with a
// limit per asset (per call and per 24 h) from the key form, the key list shows the limits, and the key is refused past
// them (403 with the `spendingLimit` extension). The page passes the axe, keyboard and width checks at 390 and 1440 px.
// Screenshots: test-results/console/api-keys-limits-<width>.png (git-ignored).
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Browser, launchChromium } from "../helpers/chromium.ts";
import { checkPage, settled, watchPage } from "../helpers/console-pages.ts";
import { api, startTestServer, type TestServer } from "../helpers/test-server.ts";

const ORG = "org_console_limits";
const OWNER = { email: "owner@limits.example", name: "Olivia Owner", password: "correct-horse-battery-staple" };
const EVM = "0x52908400098527886E0F7030069857D2E4169EE7";

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

describe("spending limits in the console", () => {
  it("an owner creates a key with spending limits; the list shows them; the key is refused past them", async () => {
    const invited = await api(server.url, server.adminToken)("POST", `/api/admin/organizations/${ORG}/member-invitations`, {
      email: OWNER.email,
      role: "owner",
    });
    expect(invited.status, invited.text).toBe(201);
    await page.goto(`${server.url}/console/accept-invitation${new URL(invited.json.invitationUrl as string).hash}`);
    await page.getByLabel("Name").fill(OWNER.name);
    await page.getByLabel("Password").fill(OWNER.password);
    await page.getByRole("button", { name: "Accept invitation" }).click();
    await page.waitForURL(/\/console\/sandbox\/dashboard$/);
    // The dashboard's own requests finish first (leaving mid-load would abort them), then the key page by its link.
    await settled(page);
    await page.getByRole("navigation").getByRole("link", { name: "API keys", exact: true }).click();
    await settled(page);

    await page.getByLabel("Label").fill("Shopping agent");
    await page.getByRole("checkbox", { name: "payments:write" }).check();
    await page.getByLabel("Limit 1 asset").fill("usdc");
    await page.getByLabel("Limit 1 per call").fill("100");
    await page.getByLabel("Limit 1 per 24 hours").fill("1000");
    await page.getByRole("button", { name: "Add a spending limit" }).click();
    await page.getByLabel("Limit 2 asset").fill("EUR");
    await page.getByLabel("Limit 2 per 24 hours").fill("500");
    await page.getByRole("button", { name: "Create key" }).click();
    const dialog = page.getByRole("dialog", { name: "Your new API key" });
    await dialog.waitFor();
    const secret = ((await dialog.getByTestId("new-key-secret").textContent()) ?? "").trim();
    expect(secret).toMatch(/^cp_sandbox_/);
    await dialog.getByRole("button", { name: "Close" }).click();
    await settled(page);

    const row = page.getByRole("row").filter({ hasText: "Shopping agent" });
    const limits = row.getByRole("cell", { name: /USDC: 100 per call, 1000 per 24 h/ });
    expect(await limits.textContent()).toContain("EUR: 500 per 24 h");

    const call = api(server.url, secret);
    const payment = (amount: string) => ({ amount, stablecoin: "USDC", chain: "base", toAddress: EVM });
    expect((await call("POST", "/api/v1/payments", payment("100"))).status).toBe(201);
    const refused = await call("POST", "/api/v1/payments", payment("150"));
    expect(refused.status).toBe(403);
    expect(refused.json.spendingLimit).toEqual({ asset: "USDC", limit: "perCall", maximum: "100", used: "100", requested: "150" });
    expect(watch.take()).toEqual([]);

    for (const check of await checkPage(page, "api-keys-limits")) {
      expect(check.violations, `at ${check.width}px`).toEqual([]);
      expect(check.unreachable, `at ${check.width}px`).toEqual([]);
      expect(check.overflow, `at ${check.width}px`).toBeLessThanOrEqual(0);
    }
    expect(watch.take()).toEqual([]);
  }, 180_000);
});
