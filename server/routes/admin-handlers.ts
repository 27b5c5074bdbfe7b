// Operator API (bearer ADMIN_TOKEN): API keys, provider connections and organization settings.
import { createApiKey, listApiKeys, revokeApiKey } from "../domain/admin/api-keys.ts";
import { createConnection, deleteConnection, listConnections } from "../domain/admin/connections.ts";
import { getOrganizationSettings } from "../domain/admin/get-organization-settings.ts";
import { updateOrganizationSettings } from "../domain/admin/update-organization-settings.ts";
import { type Routes, route } from "./route.ts";

export const adminRoutes: Routes = [
  route("adminCreateApiKey", async ({ body, deps }) => ({ status: 201, body: await createApiKey(deps.db.prisma, body) })),
  route("adminListApiKeys", async ({ query, deps }) => ({
    status: 200,
    body: await listApiKeys(deps.db.prisma, query.organizationId),
  })),
  // No instance caches keys: the next request with a revoked key, on any instance, is refused.
  route("adminRevokeApiKey", async ({ path, deps }) => ({ status: 200, body: await revokeApiKey(deps.db.prisma, path.id) })),
  route("adminCreateConnection", async ({ body, deps }) => ({
    status: 201,
    body: await createConnection(deps.db.prisma, body),
  })),
  route("adminListConnections", async ({ query, deps }) => ({
    status: 200,
    body: await listConnections(deps.db.prisma, query.organizationId),
  })),
  route("adminDeleteConnection", async ({ path, deps }) => {
    await deleteConnection(deps.db.prisma, path.id);
    return { status: 204 };
  }),
  route("adminGetOrganizationSettings", async ({ path, deps }) => ({
    status: 200,
    body: await getOrganizationSettings(deps.db.prisma, path.organizationId),
  })),
  route("adminUpdateOrganizationSettings", async ({ path, body, deps }) => ({
    status: 200,
    body: await updateOrganizationSettings(deps.db.prisma, path.organizationId, body),
  })),
];
