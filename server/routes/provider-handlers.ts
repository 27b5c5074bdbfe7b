// Providers: directory, selection receipts, invocation.

import type { Outcome, PendingProviderStep } from "../db/unit-of-work.ts";
import { invokeProvider } from "../domain/providers/invoke-provider.ts";
import { listProviders } from "../domain/providers/list-providers.ts";
import { selectProvider } from "../domain/providers/select-provider.ts";
import type { components } from "../generated/openapi.ts";
import { respondWithUnitOfWork } from "../http/respond-with-unit-of-work.ts";
import type { ProviderCategory } from "../providers/provider-adapter.ts";
import { authOf, type HandlerTable } from "./handler.ts";

export const providerHandlers: HandlerTable = {
  async listProviders(req, res, deps) {
    const category = (req.query as { category?: ProviderCategory }).category;
    res.json(await listProviders({ db: deps.db.kysely, auth: authOf(req), category }));
  },
  async selectProvider(req, res, deps) {
    const body = req.body as components["schemas"]["SelectProviderRequest"];
    const auth = authOf(req);
    await respondWithUnitOfWork(req, res, deps, async (uow) => ({
      status: 201,
      body: await selectProvider({
        uow,
        auth,
        category: body.category as ProviderCategory,
        operation: body.operation,
        providerSlug: body.providerSlug,
      }),
    }));
  },
  async invokeProvider(req, res, deps) {
    const request = req.body as components["schemas"]["InvokeProviderRequest"];
    const auth = authOf(req);
    // Two transactions when it calls the provider (see invokeProvider). The cast: respondWithUnitOfWork types the
    // provider step, which a step with a real result type is not assignable to.
    await respondWithUnitOfWork(
      req,
      res,
      deps,
      (uow) =>
        invokeProvider({ uow, auth, request, idempotent: Boolean(req.ctx.idempotency), requestId: req.ctx.requestId }) as Promise<
          Outcome | PendingProviderStep
        >,
    );
  },
};
