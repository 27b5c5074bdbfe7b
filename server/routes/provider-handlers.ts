// Providers: directory, selection receipts, invocation.
import { invokeProvider } from "../domain/providers/invoke-provider.ts";
import { listProviders } from "../domain/providers/list-providers.ts";
import { selectProvider } from "../domain/providers/select-provider.ts";
import { type Routes, route } from "./route.ts";

export const providerRoutes: Routes = [
  route("listProviders", async ({ query, auth, deps }) => ({
    status: 200,
    body: await listProviders(deps.db.kysely, { auth, category: query.category }),
  })),
  route("selectProvider", ({ body, auth, respond }) =>
    respond(async (uow) => ({
      status: 201,
      body: await selectProvider(uow, { auth, category: body.category, operation: body.operation, providerSlug: body.providerSlug }),
    })),
  ),
  // Two transactions when it calls the provider (see invokeProvider).
  route("invokeProvider", ({ body, auth, idempotent, requestId, respond }) =>
    respond((uow) => invokeProvider(uow, { auth, request: body, idempotent, requestId })),
  ),
];
