// Helpers for v2 tests: connections, keys with all scopes, unique idempotency keys.
import { randomUUID } from "node:crypto";
import type { TestServer } from "./test-server.ts";

export const ALL_WRITE_SCOPES = [
  "wallets:write",
  "payments:write",
  "cards:write",
  "compliance:write",
  "projects:write",
  "analytics:read",
  "fx:write",
  "webhooks:write",
];

export async function connect(
  server: TestServer,
  body: { organizationId?: string; environment?: string; category: string; providerSlug?: string; reviewed?: boolean; config?: object },
): Promise<{ id: string }> {
  const res = await fetch(`${server.url}/api/admin/connections`, {
    method: "POST",
    headers: { authorization: `Bearer ${server.adminToken}`, "content-type": "application/json" },
    body: JSON.stringify({ organizationId: "org_test", environment: "sandbox", providerSlug: "simulator", reviewed: true, ...body }),
  });
  if (res.status !== 201) throw new Error(`connect failed: ${res.status} ${await res.text()}`);
  return (await res.json()) as { id: string };
}

export const idem = () => ({ "idempotency-key": randomUUID() });
