// The console's acceptance journey in Chromium against a real server: the first owner opens the operator's invitation
// link, sets a password and lands on the dashboard (every metric charted); enrols a second factor; creates an API key,
// uses it (curl-equivalent fetch) and revokes it; composes and sends a v1 payment (201); approves a mint that another
// member's key requested and cannot approve their own; finds the mint's events and retries a failed webhook delivery;
// then every page passes the axe, keyboard, width and console checks at 390 and 1440 px; signs out and in again, and
// turns the second factor off (a fresh session must verify it first: 403 SECOND_FACTOR_REQUIRED, shown in words).
// Screenshots: test-results/console/<page>-<width>.png (git-ignored). The README's images in docs/ (console-dashboard.png,
// console-composer.png, console-approvals.png) are refreshed from them only when asked: UPDATE_SCREENSHOTS=1.
import { copyFileSync } from "node:fs";
import path from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Browser, launchChromium } from "../helpers/chromium.ts";
import { checkPage, SCREENSHOT_DIR, settled, watchPage } from "../helpers/console-pages.ts";
import { launchToken, SIGNER, TREASURY } from "../helpers/contracts.ts";
import { api, startTestServer, type TestServer } from "../helpers/test-server.ts";
import { freshTotp } from "../helpers/totp.ts";

const ORG = "org_console";
const ALICE = { email: "alice@console.example", name: "Alice Owner", password: "correct-horse-battery-staple" };
const BOB = { email: "bob@console.example", name: "Bob Developer", password: "another-long-password-1" };
const ALL_WRITE = [
  "wallets:write",
  "payments:write",
  "cards:write",
  "compliance:write",
  "projects:write",
  "analytics:read",
  "fx:write",
  "webhooks:write",
];

let server: TestServer;
let browser: Browser;
let page: Page;
let watch: ReturnType<typeof watchPage>;
let totpSecret = "";
let bobMint: { issuanceRequestId: string; approvalRequestId: string };
let aliceMint: { issuanceRequestId: string; approvalRequestId: string };
let endpointId = "";

/** The README's images in docs/, each from this run's screenshot of that page at 1440 px. */
const README_IMAGES = [
  ["dashboard-1440.png", "console-dashboard.png"],
  ["composer-1440.png", "console-composer.png"],
  ["approvals-1440.png", "console-approvals.png"],
] as const;

const consoleUrl = (p: string) => `${server.url}/console${p}`;

/** A member's session outside the browser (Bob): the cookie from accepting the invitation, same-origin headers. */
async function memberSession(invitationUrl: string, member: typeof BOB) {
  const token = new URLSearchParams(new URL(invitationUrl).hash.slice(1)).get("token");
  const accepted = await fetch(`${server.url}/api/v2/agent/member-invitations/accept`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: server.url },
    body: JSON.stringify({ token, name: member.name, password: member.password }),
  });
  expect(accepted.status, await accepted.clone().text()).toBe(201);
  const signedIn = await fetch(`${server.url}/api/v2/agent/sessions`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: server.url },
    body: JSON.stringify({ email: member.email, password: member.password }),
  });
  expect(signedIn.status).toBe(201);
  const cookie = (signedIn.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
  expect(cookie).toMatch(/^__Host-cp_session=/);
  return async (method: string, p: string, body?: unknown) => {
    const res = await fetch(`${server.url}${p}`, {
      method,
      headers: { cookie, origin: server.url, "content-type": "application/json", "Coinplane-Environment": "sandbox" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, json: (await res.json().catch(() => undefined)) as Record<string, unknown> };
  };
}

async function mint(key: string, issuerId: string, reason: string) {
  const res = await api(server.url, key)(
    "POST",
    "/api/v2/agent/treasury/mint",
    { issuerId, amountMinor: "1250000000", signerAddress: SIGNER, to: TREASURY, reason },
    { "Idempotency-Key": `mint-${reason}` },
  );
  expect(res.status, res.text).toBe(201);
  return { issuanceRequestId: res.json.issuanceRequestId as string, approvalRequestId: res.json.approvalRequestId as string };
}

async function nav(name: string) {
  const menu = page.getByRole("button", { name: "Menu" });
  if (await menu.isVisible()) await menu.click();
  await page.getByRole("navigation").getByRole("link", { name, exact: true }).click();
  await settled(page);
}

async function noSecretStored(secret: string) {
  const stored = await page.evaluate(() => JSON.stringify({ ...window.localStorage }) + JSON.stringify({ ...window.sessionStorage }));
  expect(stored).not.toContain(secret);
  expect(page.url()).not.toContain(secret);
}

beforeAll(async () => {
  server = await startTestServer({
    webhookDelivery: true,
    env: {
      WEBHOOK_POLL_INTERVAL_MS: "20",
      WEBHOOK_RETRY_SCHEDULE_SECONDS: "0.05",
      WEBHOOK_ATTEMPT_TIMEOUT_MS: "2000",
      WEBHOOK_LEASE_SECONDS: "5",
    },
  });
  browser = await launchChromium();
  page = await browser.context.newPage();
  watch = watchPage(page);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe("the console journey", () => {
  it("the operator's invitation link opens the console: set a password, the dashboard shows every metric", async () => {
    const invited = await api(server.url, server.adminToken)("POST", `/api/admin/organizations/${ORG}/member-invitations`, {
      email: ALICE.email,
      role: "owner",
    });
    expect(invited.status, invited.text).toBe(201);
    const link = new URL(invited.json.invitationUrl as string);
    expect(link.pathname).toBe("/console/accept-invitation");
    await page.goto(consoleUrl(`/accept-invitation${link.hash}`));
    await page.getByLabel("Name").fill(ALICE.name);
    await page.getByLabel("Password").fill(ALICE.password);
    await page.getByRole("button", { name: "Accept invitation" }).click();
    await page.waitForURL(/\/console\/sandbox\/dashboard$/);
    await settled(page);
    expect(page.url()).not.toContain("token");
    // Every metric of the contract's catalogue: a chart, its source and its latest value.
    const spec = (await (await fetch(`${server.url}/openapi.json`)).json()) as { paths: Record<string, { get: { description: string } }> };
    const catalogue = [...spec.paths["/api/metric/{metricId}"]!.get.description.matchAll(/^\|\s*`([a-z0-9_.]+)`/gm)].map((m) => m[1]);
    expect(catalogue.length).toBeGreaterThanOrEqual(10);
    for (const metricId of catalogue) {
      const card = page.getByRole("region", { name: metricId! });
      // The chart draws in an effect after its series arrives (each card loads its own): wait for the canvas, do not
      // count it at once — on a loaded machine the last cards draw after the page reports it has settled.
      await card
        .getByRole("img", { name: `${metricId} chart` })
        .locator("canvas")
        .first()
        .waitFor({ state: "attached", timeout: 20_000 });
      expect(await card.locator(".badge").textContent()).toMatch(/^(live|sample)$/);
      expect(await card.locator(".value").textContent()).toMatch(/\d/);
    }
    await page.getByRole("button", { name: "1y" }).click();
    await page.waitForURL(/range=1y/);
    await settled(page);
    expect(watch.take()).toEqual([]);
  }, 120_000);

  it("sets up the second factor: a QR code, a code from the app, recovery codes shown once", async () => {
    await nav("Members");
    await page.getByRole("button", { name: "Set up authenticator" }).click();
    await page.getByRole("img", { name: "QR code for your authenticator app" }).waitFor();
    totpSecret = ((await page.locator(".secret").first().textContent()) ?? "").trim();
    expect(totpSecret).toMatch(/^[A-Z2-7]+=*$/);
    await page.getByLabel("Code from the app").fill(await freshTotp(totpSecret));
    await page.getByRole("button", { name: "Confirm" }).click();
    const codes = page.getByRole("dialog", { name: "Recovery codes" });
    await codes.waitFor();
    expect(await codes.locator("li").count()).toBeGreaterThanOrEqual(8);
    await codes.getByRole("button", { name: "Close" }).click();
    expect(await page.locator("body").textContent()).not.toContain(totpSecret);
    expect(watch.take()).toEqual([]);
  }, 60_000);

  it("creates an API key (secret shown once), uses it, and revokes it; each key names its creator", async () => {
    // A key the operator made through the admin API: no member made it, its actor says who.
    const operatorKey = await api(server.url, server.adminToken)("POST", "/api/admin/keys", {
      organizationId: ORG,
      environment: "sandbox",
      scopes: ["payments:read"],
      actor: "ops-bot@operator.example",
      label: "Operator's key",
    });
    expect(operatorKey.status, operatorKey.text).toBe(201);
    await nav("API keys");
    await page.getByLabel("Label").fill("Journey key");
    await page.getByRole("checkbox", { name: "payments:read" }).check();
    await page.getByRole("checkbox", { name: "wallets:read" }).check();
    await page.getByRole("button", { name: "Create key" }).click();
    const dialog = page.getByRole("dialog", { name: "Your new API key" });
    await dialog.waitFor();
    const secret = ((await dialog.getByTestId("new-key-secret").textContent()) ?? "").trim();
    expect(secret).toMatch(/^cp_sandbox_/);
    await noSecretStored(secret);
    await dialog.getByRole("button", { name: "Close" }).click();
    // The secret leaves the screen (and the DOM) when the dialog closes.
    expect(await page.content()).not.toContain(secret);
    const used = await api(server.url, secret)("GET", "/api/v1/payments");
    expect(used.status, used.text).toBe(200);
    // The list shows it, by prefix, with its scopes and its creator by name and email (not the member id).
    await settled(page);
    const row = page.getByRole("row").filter({ hasText: "Journey key" });
    await expect(row.textContent()).resolves.toContain("payments:read");
    const creator = row.getByRole("cell", { name: /Alice Owner/ });
    expect(await creator.textContent()).toContain(ALICE.email);
    expect(await creator.textContent()).not.toMatch(/mem_/);
    const operatorRow = page.getByRole("row").filter({ hasText: "Operator's key" });
    expect(await operatorRow.getByRole("cell", { name: /ops-bot@operator\.example/ }).textContent()).toContain("the operator (admin API)");
    await row.getByRole("button", { name: "Revoke" }).click();
    const confirm = page.getByRole("dialog", { name: "Revoke this key?" });
    await confirm.getByRole("button", { name: "Revoke" }).click();
    await page.getByRole("row").filter({ hasText: "Journey key" }).filter({ hasText: "revoked" }).waitFor();
    const refused = await api(server.url, secret)("GET", "/api/v1/payments");
    expect(refused.status).toBe(401);
    expect(watch.take()).toEqual([]);
  }, 60_000);

  it("composes and sends a v1 payment with a sandbox key made in the composer: 201, headers, curl and SDK", async () => {
    await nav("Composer");
    await page.getByLabel("Operation").selectOption("createPayment");
    await page.getByRole("button", { name: "Generate sandbox key" }).click();
    const dialog = page.getByRole("dialog", { name: "Your new sandbox key" });
    await dialog.waitFor();
    const secret = ((await dialog.locator(".secret").textContent()) ?? "").trim();
    await dialog.getByRole("button", { name: "Close" }).click();
    expect(await page.content()).not.toContain(secret);
    // Prefilled from the spec's example; the Idempotency-Key is filled in.
    expect(await page.getByLabel("amount", { exact: false }).first().inputValue()).toBe("125.50");
    expect(await page.getByLabel("Idempotency-Key").inputValue()).not.toBe("");
    // The payment needs a wallet: the composer creates it the same way (createWallet) first.
    await page.getByLabel("Operation").selectOption("createWallet");
    await page.getByRole("button", { name: "Send" }).click();
    await page.getByRole("heading", { name: /^Response \d+/ }).waitFor();
    expect(await page.getByRole("heading", { name: /^Response \d+/ }).textContent()).toContain("201");
    await page.getByLabel("Operation").selectOption("createPayment");
    await page.getByRole("button", { name: "Send" }).click();
    await page.getByRole("heading", { name: /Response 201/ }).waitFor();
    const response = page.locator("section").filter({ has: page.getByRole("heading", { name: /^Response/ }) });
    const shown = (await response.first().textContent()) ?? "";
    expect(shown).toContain("x-request-id");
    expect(shown).toContain("x-ratelimit-remaining");
    expect(shown).toContain('"status"');
    const curl = (await page.locator(".code-block").first().textContent()) ?? "";
    expect(curl).toContain('-X POST "$COINPLANE_URL/api/v1/payments"');
    expect(curl).toContain("Idempotency-Key:");
    expect(curl).not.toContain(secret);
    expect((await page.locator(".code-block").nth(1).textContent()) ?? "").toContain("coinplane.payments.create(");
    // The session's history lists both requests.
    expect(await page.getByRole("table", { name: "Requests sent in this session" }).locator("tbody tr").count()).toBe(2);
    await noSecretStored(secret);
    expect(watch.take()).toEqual([]);
  }, 90_000);

  it("creates a webhook endpoint whose deliveries fail (its secret shown once)", async () => {
    await nav("Webhooks");
    await page.getByLabel("URL").fill("http://127.0.0.1:9/coinplane-hooks");
    await page.getByLabel("Description").fill("Failing receiver");
    await page.getByRole("button", { name: "Create endpoint" }).click();
    const dialog = page.getByRole("dialog", { name: "Signing secret" });
    await dialog.waitFor();
    expect((await dialog.locator(".secret").textContent()) ?? "").toMatch(/^whsec_/);
    await dialog.getByRole("button", { name: "Close" }).click();
    await page.getByRole("link", { name: "http://127.0.0.1:9/coinplane-hooks" }).click();
    await page.waitForURL(/\/webhooks\/we_/);
    endpointId = page.url().split("/").pop() ?? "";
    await settled(page);
    expect(watch.take()).toEqual([]);
  }, 60_000);

  it("approves a mint another member's key requested, and cannot approve one's own", async () => {
    // Bob joins as a developer through an invitation Alice makes in the console.
    await nav("Members");
    await page.getByLabel("Email of the person to invite").fill(BOB.email);
    await page.getByLabel("Role", { exact: true }).selectOption("developer");
    await page.getByRole("button", { name: "Invite" }).click();
    const dialog = page.getByRole("dialog", { name: "Invitation link" });
    const bobLink = ((await dialog.locator(".secret").textContent()) ?? "").trim();
    await dialog.getByRole("button", { name: "Close" }).click();
    const bob = await memberSession(bobLink, BOB);
    const bobKey = await bob("POST", "/api/v2/agent/api-keys", { environment: "sandbox", scopes: ALL_WRITE, label: "Bob's treasury key" });
    expect(bobKey.status).toBe(201);
    const token = await launchToken(api(server.url, bobKey.json.secret as string));
    bobMint = await mint(bobKey.json.secret as string, token.issuerId, "bob");
    // Alice's own key (made the same way as in the console) requests a mint too.
    const aliceKey = await page.evaluate(async () => {
      const res = await fetch("/api/v2/agent/api-keys", {
        method: "POST",
        headers: { "content-type": "application/json", "Coinplane-Environment": "sandbox" },
        body: JSON.stringify({ environment: "sandbox", scopes: ["projects:write", "wallets:write"], label: "Alice's own mint key" }),
      });
      return ((await res.json()) as { secret: string }).secret;
    });
    aliceMint = await mint(aliceKey, token.issuerId, "alice");

    await nav("Approvals");
    const bobRow = page.getByRole("row").filter({ has: page.getByRole("button", { name: `Approve ${bobMint.approvalRequestId}` }) });
    await bobRow.waitFor();
    // What the request would do, in words: the operation, the amount with its asset (the issuer's 6 decimals), the
    // destination, who asked and until when.
    await bobRow.getByRole("link", { name: "Mint" }).waitFor();
    await bobRow.getByRole("cell", { name: "1,250.00 CPUSD", exact: true }).waitFor();
    await bobRow.getByRole("cell", { name: "CPUSD", exact: true }).waitFor();
    await bobRow.getByRole("cell", { name: TREASURY, exact: true }).waitFor();
    await bobRow.getByRole("cell", { name: BOB.email, exact: true }).waitFor();
    await bobRow.getByRole("cell", { name: /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/ }).waitFor();
    expect(await bobRow.textContent()).not.toContain("1250000000");
    const ownRow = page.getByRole("row").filter({ hasText: "Your request" });
    await ownRow.waitFor();
    expect(await ownRow.getByRole("button", { name: /Approve/ }).count()).toBe(0);
    // The server refuses it too: four eyes.
    const ownDecision = await page.evaluate(async (id) => {
      const res = await fetch(`/api/v2/agent/approvals/${id}/approve`, {
        method: "POST",
        headers: { "content-type": "application/json", "Coinplane-Environment": "sandbox" },
        body: "{}",
      });
      return { status: res.status, code: ((await res.json()) as { code?: string }).code };
    }, aliceMint.approvalRequestId);
    // Alice verified her factor in this session when she enrolled it: the one reason left is that the request is hers.
    expect(ownDecision).toEqual({ status: 403, code: "OWN_APPROVAL_REQUEST" });
    await bobRow.getByRole("button", { name: `Approve ${bobMint.approvalRequestId}` }).click();
    const decide = page.getByRole("dialog", { name: "Approve request" });
    expect(await decide.textContent()).toContain("1,250.00 CPUSD");
    await decide.getByLabel("Note").fill("Reserve statement checked");
    const code = decide.getByLabel("Code from your authenticator app");
    if (await code.isVisible()) await code.fill(await freshTotp(totpSecret));
    await decide.getByRole("button", { name: "Approve" }).click();
    await decide.waitFor({ state: "hidden" });
    await page.getByRole("button", { name: "approved" }).click();
    await page.waitForURL(/status=approved/);
    // The filtered list renders after the URL changes: settled() alone can run before its "Loading" status shows and
    // find the previous list (CI failed so, on a loaded machine). Its first row is waited for, then all of them counted.
    const approvedRows = page.getByRole("table", { name: "Approval requests: approved" }).locator("tbody tr");
    await approvedRows.first().waitFor();
    await settled(page);
    expect(await approvedRows.count()).toBe(1);
    const approved = await api(server.url, bobKey.json.secret as string)("GET", `/api/v2/agent/approvals/${bobMint.approvalRequestId}`);
    expect(approved.json.status).toBe("approved");
    expect(approved.json.decisionReason).toBe("Reserve statement checked");
    const stillPending = await api(server.url, bobKey.json.secret as string)(
      "GET",
      `/api/v2/agent/approvals/${aliceMint.approvalRequestId}`,
    );
    expect(stillPending.json.status).toBe("pending");
    // The refused own approval above is the one failed request of this step.
    const ownApproval = watch.takeBesides(`${server.url}/api/v2/agent/approvals/${aliceMint.approvalRequestId}/approve`);
    expect(ownApproval.others).toEqual([]);
    expect(ownApproval.expected).toContain(`HTTP 403: POST ${server.url}/api/v2/agent/approvals/${aliceMint.approvalRequestId}/approve`);
  }, 240_000);

  it("finds the mint's events on its page, and retries a failed delivery", async () => {
    await nav("Issuance requests");
    await page.getByRole("link", { name: bobMint.issuanceRequestId }).click();
    await page.waitForURL(new RegExp(`/issuance-requests/${bobMint.issuanceRequestId}$`));
    await settled(page);
    const events = page.getByRole("table", { name: `Events of ${bobMint.issuanceRequestId}` });
    await expect(events.textContent()).resolves.toContain("issuance_request.created");
    // The event log, filtered by the resource, shows the same; each event opens as JSON.
    await page.goto(consoleUrl(`/sandbox/events?resourceId=${bobMint.issuanceRequestId}`));
    await settled(page);
    await page.getByRole("link", { name: "issuance_request.created" }).first().click();
    await settled(page);
    expect(await page.getByRole("region", { name: "Event JSON" }).textContent()).toContain(bobMint.issuanceRequestId);

    await page.goto(consoleUrl(`/sandbox/webhooks/${endpointId}`));
    await settled(page);
    const failed = page.getByRole("row").filter({ has: page.getByRole("button", { name: /^Retry delivery/ }) });
    for (let i = 0; i < 50 && (await failed.count()) === 0; i++) {
      await page.reload();
      await settled(page);
    }
    // A delivery that failed its whole schedule disables the endpoint (`failing`): enable it, then retry.
    const enable = page.getByRole("button", { name: "Enable", exact: true });
    if (await enable.isVisible()) {
      expect(await page.locator(".facts").textContent()).toContain("disabled (failing)");
      await enable.click();
      await page.getByRole("status").filter({ hasText: "Endpoint enabled." }).waitFor();
      await settled(page);
    }
    const row = failed.first();
    const attemptsBefore = await row.locator(".attempts li").count();
    expect(attemptsBefore).toBeGreaterThan(0);
    expect(await row.textContent()).toContain("connection_failed");
    const deliveryLabel = (await row.getByRole("button", { name: /^Retry delivery/ }).getAttribute("aria-label")) ?? "";
    await row.getByRole("button", { name: /^Retry delivery/ }).click();
    const deliveryId = deliveryLabel.replace("Retry delivery ", "");
    // The retried delivery is attempted again (and fails again: nothing listens there).
    let attemptsAfter = attemptsBefore;
    for (let i = 0; i < 50 && attemptsAfter <= attemptsBefore; i++) {
      const list = await page.evaluate(
        async ([endpoint]) =>
          (await (
            await fetch(`/api/v2/agent/webhook-endpoints/${endpoint}/deliveries`, { headers: { "Coinplane-Environment": "sandbox" } })
          ).json()) as {
            data: { id: string; attempts: unknown[] }[];
          },
        [endpointId],
      );
      attemptsAfter = list.data.find((d) => d.id === deliveryId)?.attempts.length ?? 0;
      if (attemptsAfter <= attemptsBefore) await page.waitForTimeout(100);
    }
    expect(attemptsAfter).toBeGreaterThan(attemptsBefore);
    expect(watch.take()).toEqual([]);
  }, 120_000);

  const PAGES: [string, string][] = [
    ["dashboard", "/sandbox/dashboard"],
    ["composer", "/sandbox/composer"],
    ["api-keys", "/sandbox/api-keys"],
    ["members", "/sandbox/members"],
    ["approvals", "/sandbox/approvals"],
    ["events", "/sandbox/events"],
    ["webhooks", "/sandbox/webhooks"],
    ["audit-log", "/sandbox/audit-log"],
    ["payments", "/sandbox/payments"],
    ["bank-transfers", "/sandbox/bank-transfers"],
    ["custody-wallets", "/sandbox/custody-wallets"],
    ["custody-transfers", "/sandbox/custody-transfers"],
    ["cards", "/sandbox/cards"],
    ["card-programmes", "/sandbox/card-programmes"],
    ["issuance-requests", "/sandbox/issuance-requests"],
    ["contracts", "/sandbox/contracts"],
    ["production-dashboard", "/production/dashboard"],
  ];

  it.each(PAGES)(
    "%s passes axe, keyboard, width and console checks at 390 and 1440 px",
    async (name, p) => {
      await page.goto(consoleUrl(p));
      await settled(page);
      const checks = await checkPage(page, name);
      for (const check of checks) {
        expect(check.violations, `${name} at ${check.width}px`).toEqual([]);
        expect(check.unreachable, `${name} at ${check.width}px`).toEqual([]);
        expect(check.overflow, `${name} at ${check.width}px`).toBeLessThanOrEqual(0);
      }
      expect(watch.take()).toEqual([]);
    },
    120_000,
  );

  it.each([
    ["webhook", () => `/sandbox/webhooks/${endpointId}`],
    ["issuance-request", () => `/sandbox/issuance-requests/${bobMint.issuanceRequestId}`],
    ["approval", () => `/sandbox/approvals/${bobMint.approvalRequestId}`],
  ] as [string, () => string][])(
    "the %s detail page passes the same checks",
    async (name, target) => {
      await page.goto(consoleUrl(target()));
      await settled(page);
      for (const check of await checkPage(page, name)) {
        expect(check.violations, `${name} at ${check.width}px`).toEqual([]);
        expect(check.unreachable, `${name} at ${check.width}px`).toEqual([]);
        expect(check.overflow, `${name} at ${check.width}px`).toBeLessThanOrEqual(0);
      }
      expect(watch.take()).toEqual([]);
    },
    120_000,
  );

  it("production pages are marked as production", async () => {
    await page.goto(consoleUrl("/production/approvals"));
    await settled(page);
    expect(await page.getByRole("note").textContent()).toContain("Production");
    await page.goto(consoleUrl("/sandbox/approvals"));
    await settled(page);
    expect(await page.getByRole("note").count()).toBe(0);
    expect(watch.take()).toEqual([]);
  });

  it("signs out: the session ends and a page sends back to sign-in", async () => {
    await page.setViewportSize({ width: 1440, height: 1000 });
    await page.goto(consoleUrl("/sandbox/dashboard"));
    await settled(page);
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.waitForURL(/\/console\/sign-in/);
    await page.goto(consoleUrl("/sandbox/dashboard"));
    await page.waitForURL(/\/console\/sign-in\?next=/);
    // Signing in again with the password set from the invitation works.
    await page.getByLabel("Email").fill(ALICE.email);
    await page.getByLabel("Password").fill(ALICE.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL(/\/console\/sandbox\/dashboard$/);
    await settled(page);
    // The signed-out visit's 401 (the current session) is the one failed request of this step.
    const signedOut = watch.takeBesides(`${server.url}/api/v2/agent/sessions/current`);
    expect(signedOut.others).toEqual([]);
    expect(signedOut.expected).toContain(`HTTP 401: GET ${server.url}/api/v2/agent/sessions/current`);
    // The README's images are refreshed from this run's screenshots only when asked, so `npm test` leaves the
    // git tree as it found it.
    if (process.env.UPDATE_SCREENSHOTS === "1") {
      for (const [shot, image] of README_IMAGES) copyFileSync(path.join(SCREENSHOT_DIR, shot), path.resolve("docs", image));
    }
  }, 60_000);

  it("turns the second factor off: a session that has not verified it is told so (403), then a code does it", async () => {
    await nav("Members");
    const factor = page.getByRole("region", { name: "Your second factor" });
    const aliceRow = page.getByRole("table", { name: "Members" }).getByRole("row").filter({ hasText: ALICE.email });
    expect(await aliceRow.getByRole("cell").nth(3).textContent()).toBe("on");
    await factor.getByRole("button", { name: "Disable second factor" }).click();
    const confirm = page.getByRole("dialog", { name: "Disable the second factor?" });
    await confirm.waitFor();
    // This session (signed in again above) has not verified the factor: without a code the server refuses.
    await confirm.getByRole("button", { name: "Disable second factor" }).click();
    const refusal = confirm.getByRole("alert");
    await refusal.waitFor();
    expect(await refusal.textContent()).toContain("needs it verified in this session");
    expect(await refusal.textContent()).toContain("SECOND_FACTOR_REQUIRED");
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, "disable-second-factor-refused-1440.png") });
    const refused = watch.takeBesides(`${server.url}/api/v2/agent/members/me/totp`);
    expect(refused.others).toEqual([]);
    expect(refused.expected).toContain(`HTTP 403: DELETE ${server.url}/api/v2/agent/members/me/totp`);
    await confirm.getByLabel("Code from your authenticator app").fill(await freshTotp(totpSecret));
    await confirm.getByRole("button", { name: "Disable second factor" }).click();
    await confirm.waitFor({ state: "hidden" });
    await factor.getByRole("button", { name: "Set up authenticator" }).waitFor();
    await expect.poll(() => aliceRow.getByRole("cell").nth(3).textContent()).toBe("off");
    const current = await page.evaluate(
      async () =>
        (await (await fetch("/api/v2/agent/sessions/current", { headers: { "Coinplane-Environment": "sandbox" } })).json()) as {
          member: { secondFactorEnabled: boolean };
        },
    );
    expect(current.member.secondFactorEnabled).toBe(false);
    expect(watch.take()).toEqual([]);
  }, 60_000);
});

declare const window: { localStorage: Record<string, string>; sessionStorage: Record<string, string> };
