// v2 custody: wallets (four-eyes), balances, transfers (four-eyes, optimistic concurrency). Fails closed without a
// reviewed custody connection (424).
import { createCustodyTransfer } from "../domain/custody/create-custody-transfer.ts";
import { createCustodyWallet } from "../domain/custody/create-custody-wallet.ts";
import { getCustodyTransferStatus } from "../domain/custody/get-custody-transfer-status.ts";
import { getCustodyWalletBalance } from "../domain/custody/get-custody-wallet-balance.ts";
import type { components } from "../generated/openapi.ts";
import { commitWrite } from "../http/commit-write.ts";
import { authOf, type HandlerTable } from "./handler.ts";

type Schemas = components["schemas"];

export const custodyHandlers: HandlerTable = {
  async createCustodyWallet(req, res, deps) {
    const prepared = await createCustodyWallet({
      prisma: deps.db.prisma,
      auth: authOf(req),
      request: req.body as Schemas["CustodyWalletRequest"],
      requestId: req.ctx.requestId,
    });
    await commitWrite({ prisma: deps.db.prisma, idempotency: deps.idempotency }, req, res, prepared.status, prepared.commit);
  },
  async getCustodyWalletBalance(req, res, deps) {
    const prepared = await getCustodyWalletBalance({
      prisma: deps.db.prisma,
      auth: authOf(req),
      request: req.body as Schemas["CustodyWalletBalanceRequest"],
    });
    await commitWrite({ prisma: deps.db.prisma, idempotency: deps.idempotency }, req, res, prepared.status, prepared.commit);
  },
  async createCustodyTransfer(req, res, deps) {
    const prepared = await createCustodyTransfer({
      prisma: deps.db.prisma,
      auth: authOf(req),
      request: req.body as Schemas["CustodyTransferRequest"],
      requestId: req.ctx.requestId,
    });
    await commitWrite({ prisma: deps.db.prisma, idempotency: deps.idempotency }, req, res, prepared.status, prepared.commit);
  },
  async getCustodyTransferStatus(req, res, deps) {
    const prepared = await getCustodyTransferStatus({
      prisma: deps.db.prisma,
      auth: authOf(req),
      request: req.body as Schemas["CustodyTransferStatusRequest"],
    });
    await commitWrite({ prisma: deps.db.prisma, idempotency: deps.idempotency }, req, res, prepared.status, prepared.commit);
  },
};
