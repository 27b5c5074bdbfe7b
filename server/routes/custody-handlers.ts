// v2 custody: wallets (four-eyes), balances, transfers (four-eyes, optimistic concurrency). Fails closed without a
// reviewed custody connection (424). Every operation answers through the request's unit of work; the provider gets the
// sandbox simulator's books (its storage port) on the database itself, never inside the request's transaction.
// The `oneOf` bodies reach the domain tagged with the branch they matched (server/http/request-shapes).

import { simulatedCustodyStore } from "../db/simulated-custody-store.ts";
import { createCustodyTransfer } from "../domain/custody/create-custody-transfer.ts";
import { createCustodyWallet } from "../domain/custody/create-custody-wallet.ts";
import { getCustodyTransferStatus } from "../domain/custody/get-custody-transfer-status.ts";
import { getCustodyWalletBalance } from "../domain/custody/get-custody-wallet-balance.ts";
import { listCustodyTransfers } from "../domain/custody/list-custody-transfers.ts";
import { listCustodyWallets } from "../domain/custody/list-custody-wallets.ts";
import { pageWindow } from "../domain/lists/page-window.ts";
import { minorToDecimal } from "../domain/spending-limits/spending-limit-rules.ts";
import { custodyTransferRequest, custodyTransferStatusRequest, custodyWalletRequest } from "../http/request-shapes/custody-requests.ts";
import { ASSET_DECIMALS } from "../lib/chains/chain-assets.ts";
import { chargeSpending } from "./charge-spending.ts";
import { type Routes, route } from "./route.ts";

export const custodyRoutes: Routes = [
  route("createCustodyWallet", ({ body, auth, deps, requestId, respond }) =>
    respond((uow) =>
      createCustodyWallet({ uow, books: simulatedCustodyStore(deps.db.kysely), auth, request: custodyWalletRequest(body), requestId }),
    ),
  ),
  route("listCustodyWallets", async ({ query, auth, deps }) => ({
    status: 200,
    body: await listCustodyWallets(deps.db.kysely, { auth, window: pageWindow(query), status: query.status }),
  })),
  route("getCustodyWalletBalance", ({ body, auth, deps, respond }) =>
    respond((uow) => getCustodyWalletBalance(uow, { books: simulatedCustodyStore(deps.db.kysely), auth, request: body })),
  ),
  route("createCustodyTransfer", (context) => {
    const { body, auth, deps, requestId, respond } = context;
    const request = custodyTransferRequest(body);
    return respond(async (uow) => {
      // Counted when the transfer is requested (shape 1); submitting or advancing it moves nothing more.
      if (request.kind === "request") {
        await chargeSpending(context, uow, {
          asset: request.asset,
          amount: minorToDecimal(request.amountMinor, ASSET_DECIMALS[request.asset] ?? 0),
        });
      }
      return createCustodyTransfer({ uow, books: simulatedCustodyStore(deps.db.kysely), auth, request, requestId });
    });
  }),
  route("listCustodyTransfers", async ({ query, auth, deps }) => ({
    status: 200,
    body: await listCustodyTransfers(deps.db.kysely, {
      auth,
      window: pageWindow(query),
      status: query.status,
      walletId: query.walletId,
    }),
  })),
  route("getCustodyTransferStatus", ({ body, auth, deps, respond }) =>
    respond((uow) =>
      getCustodyTransferStatus(uow, { books: simulatedCustodyStore(deps.db.kysely), auth, request: custodyTransferStatusRequest(body) }),
    ),
  ),
];
