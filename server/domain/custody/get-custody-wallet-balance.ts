// POST custody/wallets/balance: balances as the custody provider reports them (never a local ledger).
import type { AuthContext } from "../../context.ts";
import type { Db } from "../../db/open-database.ts";
import { ServiceError } from "../../errors/service-error.ts";
import type { components } from "../../generated/openapi.ts";
import type { PreparedWrite } from "../bank-transfers/prepared-write.ts";
import { findCustodyWallet } from "./create-custody-wallet.ts";
import { chainCarries, minorToAmount } from "./custody-assets.ts";
import { callCustody, resolveCustodyProvider } from "./custody-provider.ts";

type BalanceDto = components["schemas"]["CustodyWalletBalance"];
type Asset = components["schemas"]["CustodyAsset"];

export async function getCustodyWalletBalance(options: {
  prisma: Db;
  auth: AuthContext;
  request: components["schemas"]["CustodyWalletBalanceRequest"];
}): Promise<PreparedWrite<BalanceDto>> {
  const { prisma, auth, request } = options;
  const provider = await resolveCustodyProvider(prisma, auth);
  const wallet = await findCustodyWallet(prisma, auth, request.walletId);
  if (request.asset && !chainCarries(wallet.chain, request.asset)) {
    throw new ServiceError("VALIDATION_ERROR", `/body/asset ${request.asset} is not carried on ${wallet.chain}`, {
      errors: [{ path: "/body/asset", message: `${request.asset} is not carried on ${wallet.chain}` }],
    });
  }
  const asOf = new Date();
  const base = { walletId: wallet.id, chain: wallet.chain as BalanceDto["chain"], provider: provider.slug, simulated: provider.simulated };
  const providerWalletId = wallet.providerWalletId;
  return {
    status: 200,
    async commit(tx) {
      if (wallet.status !== "active" || !providerWalletId) return { ...base, balances: [], asOf: asOf.toISOString() };
      // This endpoint documents no 503 for an unreachable provider: it answers 502.
      const reported = await callCustody(
        "report the balances",
        () => provider.api.getBalances(provider.ctx(tx), { providerWalletId, chain: wallet.chain }),
        "PROVIDER_EXECUTION_FAILED",
      );
      const entries = reported
        .filter((b) => chainCarries(wallet.chain, b.asset))
        .map((b) => ({
          asset: b.asset as Asset,
          amountMinor: b.amountMinor,
          decimals: b.decimals,
          amount: minorToAmount(BigInt(b.amountMinor), b.decimals),
        }));
      const balances = request.asset
        ? [entries.find((b) => b.asset === request.asset) ?? zero(request.asset)]
        : entries.filter((b) => b.amountMinor !== "0");
      return { ...base, balances, asOf: asOf.toISOString() };
    },
  };
}

function zero(asset: Asset) {
  const decimals = { USDC: 6, USDT: 6, EURC: 6, PYUSD: 6, DAI: 18, ETH: 18, POL: 18, AVAX: 18, SOL: 9 }[asset];
  return { asset, amountMinor: "0", decimals, amount: minorToAmount(0n, decimals) };
}
