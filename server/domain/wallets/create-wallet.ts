import type { AuthContext } from "../../context.ts";
import type { Tx } from "../../idempotency/idempotency-store.ts";
import { newId } from "../../lib/ids.ts";
import { recordActivity } from "../activity/record-activity.ts";
import { type Chain, generateAddress } from "../chains/addresses.ts";
import { ASSET_DECIMALS, SANDBOX_TEST_FUNDS_UNITS, STABLECOINS } from "../money/assets.ts";
import { toWalletDto, type WalletDto } from "./wallet-dto.ts";

export interface CreateWalletOptions {
  tx: Tx;
  auth: AuthContext;
  chain: Chain;
  label?: string;
}

/** Creates a sandbox wallet with a fresh address and credits the sandbox test funds of every asset. */
export async function createWallet({ tx, auth, chain, label }: CreateWalletOptions): Promise<WalletDto> {
  const id = newId("wal");
  const wallet = await tx.wallet.create({
    data: {
      id,
      organizationId: auth.organizationId,
      environment: auth.environment,
      chain,
      address: generateAddress(chain),
      label: label ?? null,
      assets: {
        create: STABLECOINS.map((asset) => ({
          asset,
          balanceMinor: (SANDBOX_TEST_FUNDS_UNITS * 10n ** BigInt(ASSET_DECIMALS[asset])).toString(),
        })),
      },
    },
    include: { assets: true },
  });
  await recordActivity(tx, { organizationId: auth.organizationId, environment: auth.environment, type: "wallet.created", resourceId: id });
  return toWalletDto(wallet);
}
