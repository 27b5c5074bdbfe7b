// Operator API (bearer ADMIN_TOKEN): API keys, provider connections and organization settings.
import { createApiKey, listApiKeys, revokeApiKey } from "../domain/admin/api-keys.ts";
import { createConnection, deleteConnection, listConnections } from "../domain/admin/connections.ts";
import { getOrganizationSettings } from "../domain/admin/get-organization-settings.ts";
import { updateOrganizationSettings } from "../domain/admin/update-organization-settings.ts";
import { type HandlerTable, param } from "./handler.ts";

const orgQuery = (query: unknown) => String((query as { organizationId: string }).organizationId);

export const adminHandlers: HandlerTable = {
  async adminCreateApiKey(req, res, deps) {
    res.status(201).json(await createApiKey(deps.db.prisma, req.body));
  },
  async adminListApiKeys(req, res, deps) {
    res.json(await listApiKeys(deps.db.prisma, orgQuery(req.query)));
  },
  async adminRevokeApiKey(req, res, deps) {
    const revoked = await revokeApiKey(deps.db.prisma, param(req, "id"));
    // No instance caches keys: the next request with it, on any instance, is refused.
    res.json(revoked);
  },
  async adminCreateConnection(req, res, deps) {
    res.status(201).json(await createConnection(deps.db.prisma, req.body));
  },
  async adminListConnections(req, res, deps) {
    res.json(await listConnections(deps.db.prisma, orgQuery(req.query)));
  },
  async adminDeleteConnection(req, res, deps) {
    await deleteConnection(deps.db.prisma, param(req, "id"));
    res.status(204).end();
  },
  async adminGetOrganizationSettings(req, res, deps) {
    res.json(await getOrganizationSettings(deps.db.prisma, param(req, "organizationId")));
  },
  async adminUpdateOrganizationSettings(req, res, deps) {
    res.json(await updateOrganizationSettings(deps.db.prisma, param(req, "organizationId"), req.body));
  },
};
