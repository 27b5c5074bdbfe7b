// Providers: directory, selection receipts, invocation.
import { invokeProvider } from "../domain/providers/invoke-provider.ts";
import { listProviders } from "../domain/providers/list-providers.ts";
import { selectProvider } from "../domain/providers/select-provider.ts";
import type { components } from "../generated/openapi.ts";
import { commitWrite } from "../http/commit-write.ts";
import type { ProviderCategory } from "../providers/provider-adapter.ts";
import { authOf, type HandlerTable } from "./handler.ts";

export const providerHandlers: HandlerTable = {
  async listProviders(req, res, deps) {
    const category = (req.query as { category?: ProviderCategory }).category;
    res.json(await listProviders({ prisma: deps.db.prisma, auth: authOf(req), category }));
  },
  async selectProvider(req, res, deps) {
    const body = req.body as components["schemas"]["SelectProviderRequest"];
    const record = await selectProvider({
      prisma: deps.db.prisma,
      auth: authOf(req),
      category: body.category as ProviderCategory,
      operation: body.operation,
      providerSlug: body.providerSlug,
    });
    await commitWrite({ prisma: deps.db.prisma, idempotency: deps.idempotency }, req, res, 201, record);
  },
  async invokeProvider(req, res, deps) {
    const prepared = await invokeProvider({
      prisma: deps.db.prisma,
      auth: authOf(req),
      request: req.body as components["schemas"]["InvokeProviderRequest"],
      idempotent: Boolean(req.ctx.idempotency),
      requestId: req.ctx.requestId,
    });
    await commitWrite({ prisma: deps.db.prisma, idempotency: deps.idempotency }, req, res, prepared.status, prepared.commit);
  },
};
