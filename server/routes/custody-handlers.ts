// v2 custody: wallets (four-eyes), balances, transfers (four-eyes, optimistic concurrency). Fails closed without a
// reviewed custody connection (424). Every operation answers through the request's unit of work; the provider (which
// may keep books in the database, like the simulator) gets the database itself, never the request's transaction.
import { createCustodyTransfer } from "../domain/custody/create-custody-transfer.ts";
import { createCustodyWallet } from "../domain/custody/create-custody-wallet.ts";
import { getCustodyTransferStatus } from "../domain/custody/get-custody-transfer-status.ts";
import { getCustodyWalletBalance } from "../domain/custody/get-custody-wallet-balance.ts";
import type { components } from "../generated/openapi.ts";
import { respondWithUnitOfWork } from "../http/respond-with-unit-of-work.ts";
import { authOf, type HandlerTable } from "./handler.ts";

type Schemas = components["schemas"];

export const custodyHandlers: HandlerTable = {
  async createCustodyWallet(req, res, deps) {
    const auth = authOf(req);
    const request = req.body as Schemas["CustodyWalletRequest"];
    await respondWithUnitOfWork(req, res, deps, (uow) =>
      createCustodyWallet({ uow, db: deps.db.kysely, auth, request, requestId: req.ctx.requestId }),
    );
  },
  async getCustodyWalletBalance(req, res, deps) {
    const auth = authOf(req);
    const request = req.body as Schemas["CustodyWalletBalanceRequest"];
    await respondWithUnitOfWork(req, res, deps, (uow) => getCustodyWalletBalance({ uow, db: deps.db.kysely, auth, request }));
  },
  async createCustodyTransfer(req, res, deps) {
    const auth = authOf(req);
    const request = req.body as Schemas["CustodyTransferRequest"];
    await respondWithUnitOfWork(req, res, deps, (uow) =>
      createCustodyTransfer({ uow, db: deps.db.kysely, auth, request, requestId: req.ctx.requestId }),
    );
  },
  async getCustodyTransferStatus(req, res, deps) {
    const auth = authOf(req);
    const request = req.body as Schemas["CustodyTransferStatusRequest"];
    await respondWithUnitOfWork(req, res, deps, (uow) => getCustodyTransferStatus({ uow, db: deps.db.kysely, auth, request }));
  },
};
