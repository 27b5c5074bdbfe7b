// Operator API (bearer ADMIN_TOKEN): API keys, provider connections and organization settings. Every instance keeps
// copies of keys, connections and settings (server/db/cached-read.ts): a change to them answers only after the change
// feed's barrier, once every instance has dropped its copy — so the very next request, anywhere, sees the change.
import type { Database } from "../db/open-database.ts";
import { createApiKey, listApiKeys, revokeApiKey } from "../domain/admin/api-keys.ts";
import { createConnection, deleteConnection, listConnections } from "../domain/admin/connections.ts";
import { getOrganizationSettings } from "../domain/admin/get-organization-settings.ts";
import { updateOrganizationSettings } from "../domain/admin/update-organization-settings.ts";
import { createInvitation } from "../domain/members/invitations.ts";
import { type Routes, route } from "./route.ts";

export const adminRoutes: Routes = [
  route("adminCreateApiKey", async ({ body, deps }) => ({ status: 201, body: await createApiKey(deps.db.prisma, body) })),
  route("adminListApiKeys", async ({ query, deps }) => ({
    status: 200,
    body: await listApiKeys(deps.db.prisma, { organizationId: query.organizationId }),
  })),
  route("adminRevokeApiKey", async ({ path, deps }) => ({
    status: 200,
    body: await everywhere(deps.db, revokeApiKey(deps.db.prisma, { id: path.id })),
  })),
  route("adminCreateConnection", async ({ body, deps }) => ({
    status: 201,
    body: await everywhere(deps.db, createConnection(deps.db.prisma, body)),
  })),
  route("adminListConnections", async ({ query, deps }) => ({
    status: 200,
    body: await listConnections(deps.db.prisma, { organizationId: query.organizationId }),
  })),
  route("adminDeleteConnection", async ({ path, deps }) => {
    await everywhere(deps.db, deleteConnection(deps.db.prisma, { id: path.id }));
    return { status: 204 };
  }),
  route("adminGetOrganizationSettings", async ({ path, deps }) => ({
    status: 200,
    body: await getOrganizationSettings(deps.db.prisma, { organizationId: path.organizationId }),
  })),
  route("adminUpdateOrganizationSettings", async ({ path, body, deps }) => ({
    status: 200,
    body: await everywhere(deps.db, updateOrganizationSettings(deps.db.prisma, { organizationId: path.organizationId, ...body })),
  })),
  route("adminCreateMemberInvitation", ({ path, body, request, deps, respond }) =>
    respond(async (uow) => ({
      status: 201,
      body: await createInvitation(uow, {
        organizationId: path.organizationId,
        email: body.email,
        role: body.role,
        invitedBy: null,
        clientAddress: request.clientAddress,
        ttlHours: deps.config.people.invitationTtlHours,
        origin: request.origin,
      }),
    })),
  ),
];

/** The change's answer, once every instance has applied it (the change feed's barrier). */
async function everywhere<T>(db: Database, change: Promise<T>): Promise<T> {
  const answer = await change;
  await db.changes.barrier();
  return answer;
}
