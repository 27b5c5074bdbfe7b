// POST custody/wallets/balance: balances as the custody provider reports them (never a local ledger). Two
// transactions when the provider is asked (none stays open across a provider call): the first reads the wallet, the
// second only stores the answer under the Idempotency-Key when one was sent.
import type { AuthContext } from "../../context.ts";
import type { UnitOfWork } from "../../db/unit-of-work/index.ts";
import { ServiceError } from "../../errors/service-error.ts";
import type { components } from "../../generated/openapi.ts";
import type { ProviderBalance } from "../../providers/capabilities/custody.ts";
import type { SimulatedCustodyStore } from "../../providers/capabilities/simulated-custody-store.ts";
import { connectProvider } from "../providers/connect-provider.ts";
import { callProvider } from "../providers/provider-call.ts";
import { findCustodyWallet } from "./create-custody-wallet.ts";
import { chainCarries, minorToAmount } from "./custody-assets.ts";
import { type CustodyOutcome, custodyStep } from "./custody-provider.ts";

type BalanceDto = components["schemas"]["CustodyWalletBalance"];
type Asset = components["schemas"]["CustodyAsset"];

export async function getCustodyWalletBalance(
  uow: UnitOfWork,
  options: {
    /** The simulator's books on the database itself, for the provider (called between the unit of work's two
     * transactions). */
    books: SimulatedCustodyStore;
    auth: AuthContext;
    request: components["schemas"]["CustodyWalletBalanceRequest"];
  },
): Promise<CustodyOutcome<"getCustodyWalletBalance">> {
  const { books, auth, request } = options;
  const provider = await connectProvider(uow.tx, auth, "custody");
  const wallet = await findCustodyWallet(uow.tx, auth, request.walletId);
  if (request.asset && !chainCarries(wallet.chain, request.asset)) {
    throw new ServiceError("VALIDATION_ERROR", `/body/asset ${request.asset} is not carried on ${wallet.chain}`, {
      errors: [{ path: "/body/asset", message: `${request.asset} is not carried on ${wallet.chain}` }],
    });
  }
  const asOf = uow.now.toISOString();
  const base = { walletId: wallet.id, chain: wallet.chain as BalanceDto["chain"], provider: provider.slug, simulated: provider.simulated };
  const providerWalletId = wallet.providerWalletId;
  if (wallet.status !== "active" || !providerWalletId) return { status: 200, body: { ...base, balances: [], asOf } };
  return custodyStep({
    // This endpoint documents no 503 for an unreachable provider: it answers 502.
    call: () =>
      callProvider({ provider: "custody", what: "report the balances", unreachable: "PROVIDER_EXECUTION_FAILED" }, () =>
        provider.api.getBalances(provider.context({ books }), { providerWalletId, chain: wallet.chain }),
      ),
    async onResult(_uow2, reported: ProviderBalance[]) {
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
      return { status: 200, body: { ...base, balances, asOf } satisfies BalanceDto };
    },
  });
}

function zero(asset: Asset) {
  const decimals = { USDC: 6, USDT: 6, EURC: 6, PYUSD: 6, DAI: 18, ETH: 18, POL: 18, AVAX: 18, SOL: 9 }[asset];
  return { asset, amountMinor: "0", decimals, amount: minorToAmount(0n, decimals) };
}
