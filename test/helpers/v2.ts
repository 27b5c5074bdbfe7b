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

/** Writes a provider connection row directly, past the admin API's rules: a row from before them, such as a production
 * simulator connection (the API refuses those now), which must serve nothing. */
export async function insertConnectionRow(
  server: TestServer,
  row: { organizationId?: string; environment: string; category: string; providerSlug?: string; reviewed?: boolean },
): Promise<{ id: string }> {
  const organizationId = row.organizationId ?? "org_test";
  await server.db.prisma.organization.upsert({ where: { id: organizationId }, create: { id: organizationId }, update: {} });
  return server.db.prisma.providerConnection.create({
    data: {
      id: `conn_${randomUUID().replace(/-/g, "").slice(0, 22)}`,
      organizationId,
      environment: row.environment,
      category: row.category,
      providerSlug: row.providerSlug ?? "simulator",
      reviewed: row.reviewed ?? true,
      config: {},
    },
    select: { id: true },
  });
}

/** The admin API's answer to connecting the simulator for production: 400 naming `/body/providerSlug`. */
export async function connectProductionSimulator(server: TestServer, organizationId: string, category: string) {
  const res = await fetch(`${server.url}/api/admin/connections`, {
    method: "POST",
    headers: { authorization: `Bearer ${server.adminToken}`, "content-type": "application/json" },
    body: JSON.stringify({ organizationId, environment: "production", category, providerSlug: "simulator", reviewed: true }),
  });
  return { status: res.status, json: (await res.json()) as { code: string; errors?: Array<{ path: string }> } };
}

/** Moves an approval request's deadline into the past, as time would (its status then reads `expired` unless used). */
export function expireApproval(server: TestServer, approvalRequestId: string) {
  return server.db.kysely
    .updateTable("ApprovalRequest")
    .set({ expiresAt: new Date(Date.now() - 1000) })
    .where("id", "=", approvalRequestId)
    .execute();
}
