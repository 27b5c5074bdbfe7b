// Shared setup of the examples: an SDK client per API key, keys and provider connections created through the operator
// (admin) API, which is not part of the SDK. Reads COINPLANE_URL (default http://127.0.0.1:${PORT:-8080}), ADMIN_TOKEN (else
// ./.data/admin-token written by `npm start`) and COINPLANE_ORG (default org_examples).
import { existsSync, readFileSync } from "node:fs";
import { Coinplane } from "@coinplane/sdk";

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
