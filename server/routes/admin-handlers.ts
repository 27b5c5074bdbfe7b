// Operator API (bearer ADMIN_TOKEN): API keys and provider connections.
import { createApiKey, listApiKeys, revokeApiKey } from "../domain/admin/api-keys.ts";
import { createConnection, deleteConnection, listConnections } from "../domain/admin/connections.ts";
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
    res.json(await revokeApiKey(deps.db.prisma, param(req, "id")));
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
};
