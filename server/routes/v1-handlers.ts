// Sandbox API (v1): wallets, payments, balances. Thin: read the request, call one domain function, respond.
import { getBalances } from "../domain/balances/get-balances.ts";
import type { Chain } from "../domain/chains/addresses.ts";
import type { Stablecoin } from "../domain/money/assets.ts";
import { createPayment } from "../domain/payments/create-payment.ts";
import { getPayment } from "../domain/payments/get-payment.ts";
import { listPayments } from "../domain/payments/list-payments.ts";
import { createWallet } from "../domain/wallets/create-wallet.ts";
import { getWallet } from "../domain/wallets/get-wallet.ts";
import { getWalletBalance } from "../domain/wallets/get-wallet-balance.ts";
import { listWallets } from "../domain/wallets/list-wallets.ts";
import type { components } from "../generated/openapi.ts";
import { respondWithUnitOfWork } from "../http/respond-with-unit-of-work.ts";
import { authOf, type HandlerTable, intQuery, param } from "./handler.ts";

export const v1Handlers: HandlerTable = {
  async createWallet(req, res, deps) {
    const body = req.body as components["schemas"]["CreateWalletRequest"];
    const auth = authOf(req);
    await respondWithUnitOfWork(req, res, deps, async (uow) => ({
      status: 201,
      body: await createWallet({ uow, auth, chain: body.chain as Chain, label: body.label }),
    }));
  },
  async listWallets(req, res, deps) {
    res.json(
      await listWallets({
        db: deps.db.kysely,
        auth: authOf(req),
        limit: intQuery(req, "limit", 100),
        offset: intQuery(req, "offset", 0),
      }),
    );
  },
  async getWallet(req, res, deps) {
    res.json(await getWallet({ db: deps.db.kysely, auth: authOf(req), id: param(req, "id") }));
  },
  async getWalletBalance(req, res, deps) {
    res.json(await getWalletBalance({ db: deps.db.kysely, auth: authOf(req), id: param(req, "id") }));
  },
  async createPayment(req, res, deps) {
    const body = req.body as components["schemas"]["CreatePaymentRequest"];
    const auth = authOf(req);
    await respondWithUnitOfWork(req, res, deps, async (uow) => ({
      status: 201,
      body: await createPayment({
        uow,
        auth,
        amount: body.amount,
        stablecoin: body.stablecoin as Stablecoin,
        toAddress: body.toAddress,
        chain: body.chain as Chain,
        metadata: body.metadata,
      }),
    }));
  },
  async listPayments(req, res, deps) {
    res.json(
      await listPayments({
        db: deps.db.kysely,
        auth: authOf(req),
        limit: intQuery(req, "limit", 10),
        offset: intQuery(req, "offset", 0),
      }),
    );
  },
  async getPayment(req, res, deps) {
    res.json(await getPayment({ db: deps.db.kysely, auth: authOf(req), id: param(req, "id") }));
  },
  async getBalances(req, res, deps) {
    res.json(await getBalances({ db: deps.db.kysely, auth: authOf(req) }));
  },
};
