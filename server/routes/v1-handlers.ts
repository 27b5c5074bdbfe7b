// Sandbox API (v1): wallets, payments, balances. Thin: read the request, call one domain function, answer.
import { getBalances } from "../domain/balances/get-balances.ts";
import { createPayment } from "../domain/payments/create-payment.ts";
import { getPayment } from "../domain/payments/get-payment.ts";
import { listPayments } from "../domain/payments/list-payments.ts";
import { createWallet } from "../domain/wallets/create-wallet.ts";
import { getWallet } from "../domain/wallets/get-wallet.ts";
import { getWalletBalance } from "../domain/wallets/get-wallet-balance.ts";
import { listWallets } from "../domain/wallets/list-wallets.ts";
import { chargeSpending } from "./charge-spending.ts";
import { type Routes, route } from "./route.ts";

export const v1Routes: Routes = [
  route("createWallet", ({ body, auth, respond }) =>
    respond(async (uow) => ({ status: 201, body: await createWallet(uow, { auth, chain: body.chain, label: body.label }) })),
  ),
  route("listWallets", async ({ query, auth, deps }) => ({
    status: 200,
    body: await listWallets(deps.db.kysely, { auth, limit: query.limit ?? 100, offset: query.offset ?? 0 }),
  })),
  route("getWallet", async ({ path, auth, deps }) => ({
    status: 200,
    body: await getWallet(deps.db.kysely, { auth, id: path.id }),
  })),
  route("getWalletBalance", async ({ path, auth, deps }) => ({
    status: 200,
    body: await getWalletBalance(deps.db.kysely, { auth, id: path.id }),
  })),
  route("createPayment", (context) => {
    const { body, auth, respond } = context;
    return respond(
      async (uow) => {
        await chargeSpending(context, uow, { asset: body.stablecoin, amount: body.amount });
        return {
          status: 201,
          body: await createPayment(uow, {
            auth,
            amount: body.amount,
            stablecoin: body.stablecoin,
            toAddress: body.toAddress,
            chain: body.chain,
            metadata: body.metadata,
          }),
        };
      },
      // A sandbox payment reads nothing and calls no one (its rows are all deferred): its key needs no read of its own.
      // A key with spending limits locks and sums its spends first: its Idempotency-Key is read before that, so a replay
      // answers from the record without taking the lock.
      { keyCheckedAtClose: !auth.spendingLimited },
    );
  }),
  route("listPayments", async ({ query, auth, deps }) => ({
    status: 200,
    body: await listPayments(deps.db.kysely, { auth, limit: query.limit ?? 10, offset: query.offset ?? 0 }),
  })),
  route("getPayment", async ({ path, auth, deps }) => ({
    status: 200,
    body: await getPayment(deps.db.kysely, { auth, id: path.id }),
  })),
  route("getBalances", async ({ auth, deps }) => ({ status: 200, body: await getBalances(deps.db.kysely, { auth }) })),
];
