// Shared setup of the examples: an SDK client per API key or per member's session; keys, invitations and provider
// connections created through the operator (admin) API, which is not part of the SDK. Reads COINPLANE_URL (default http://127.0.0.1:${PORT:-8080}), ADMIN_TOKEN (else
// ./.data/admin-token written by `npm start`) and COINPLANE_ORG (default org_examples).
import { existsSync, readFileSync } from "node:fs";
import { Coinplane } from "@coinplane/sdk";
import { generate } from "otplib";

export const baseUrl = process.env.COINPLANE_URL ?? `http://127.0.0.1:${process.env.PORT ?? 8080}`;
export const organizationId = process.env.COINPLANE_ORG ?? "org_examples";

function adminToken(): string {
  if (process.env.ADMIN_TOKEN) return process.env.ADMIN_TOKEN;
  if (existsSync(".data/admin-token")) return readFileSync(".data/admin-token", "utf8").trim();
  throw new Error("Set ADMIN_TOKEN (or run `npm start` once, which writes .data/admin-token)");
}

async function admin(path: string, body: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(`${baseUrl}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${adminToken()}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as Record<string, unknown>;
}

/** A sandbox SDK client with a fresh key of these scopes (and actor, for four-eyes approvals). */
export async function sandboxClient(scopes: string[], actor?: string): Promise<Coinplane> {
  const key = await admin("/api/admin/keys", { organizationId, environment: "sandbox", scopes, ...(actor ? { actor } : {}) });
  return new Coinplane({
    apiKey: String(key.key),
    baseUrl,
    environment: "sandbox",
    hooks: process.env.COINPLANE_LOG
      ? { onResponse: (e) => console.error(`${e.method} ${new URL(e.url).pathname} → ${e.status ?? e.error?.code} (${e.durationMs} ms)`) }
      : undefined,
  });
}

/**
 * A person who decides approvals (issue 24: API keys never do): the operator invites them as an `approver`, they accept
 * with a password, sign in (the session cookie) and enrol a TOTP second factor, which verifies this session. In the
 * console these are the invitation link, the sign-in page and the authenticator app; here otplib stands in for the app.
 * Answers an SDK client carried by that session.
 */
export async function approverSession(email: string): Promise<Coinplane> {
  const invited = await admin(`/api/admin/organizations/${organizationId}/member-invitations`, { email, role: "approver" });
  const token = new URL(String(invited.invitationUrl)).hash.replace(/^#token=/, "");
  const password = "example-password-0123";
  await post("/api/v2/agent/member-invitations/accept", { token, name: email.split("@")[0], password });
  const signedIn = await post("/api/v2/agent/sessions", { email, password });
  const sessionCookie = /__Host-cp_session=([^;]*)/.exec(signedIn.headers.get("set-cookie") ?? "")?.[1];
  if (!sessionCookie) throw new Error("sign-in answered no session cookie");
  const person = new Coinplane({ sessionCookie, baseUrl, environment: "sandbox" });
  const { secret } = await person.members.beginTotpEnrollment();
  await person.members.confirmTotpEnrollment({ code: await generate({ secret }) });
  return person;
}

/** A POST without credentials, from this server's own origin (accepting an invitation and signing in need no key). */
async function post(path: string, body: unknown): Promise<Response> {
  const res = await fetch(`${baseUrl}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: new URL(baseUrl).origin },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return res;
}

/** Connects a category's sandbox simulator as a reviewed provider (custody never falls back to a simulator by itself). */
export async function connectSimulator(category: string): Promise<void> {
  await admin("/api/admin/connections", { organizationId, environment: "sandbox", category, providerSlug: "simulator", reviewed: true });
}

/** Prints one step as a JSON line (the examples' output is machine-readable). */
export function step(name: string, value: unknown): void {
  console.log(JSON.stringify({ step: name, value }));
}

export async function run(main: () => Promise<void>): Promise<void> {
  try {
    await main();
  } catch (err) {
    console.error(err);
    process.exitCode = 1;
  }
}
