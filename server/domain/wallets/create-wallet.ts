import type { AuthContext } from "../../context.ts";
import type { UnitOfWork } from "../../db/unit-of-work/index.ts";
import { newId } from "../../lib/ids.ts";
import { recordActivity } from "../activity/record-activity.ts";
import { type Chain, generateAddress } from "../chains/addresses.ts";
import { emitEvent } from "../events/emit-event.ts";
import { ASSET_DECIMALS, SANDBOX_TEST_FUNDS_UNITS, STABLECOINS } from "../money/assets.ts";
import { toWalletDto, type WalletDto } from "./wallet-dto.ts";

export interface CreateWalletOptions {
  auth: AuthContext;
  chain: Chain;
  label?: string;
}

/** Creates a sandbox wallet with a fresh address and credits the sandbox test funds of every asset. */
export async function createWallet(uow: UnitOfWork, { auth, chain, label }: CreateWalletOptions): Promise<WalletDto> {
  const id = newId("wal");
  const wallet = await uow.tx
    .insertInto("Wallet")
    .values({
      id,
      organizationId: auth.organizationId,
      environment: auth.environment,
      chain,
      address: generateAddress(chain),
      label: label ?? null,
    })
    .returning(["id", "address", "chain", "label", "createdAt"])
    .executeTakeFirstOrThrow();
  const assets = STABLECOINS.map((asset) => ({
    walletId: id,
    asset,
    balanceMinor: (SANDBOX_TEST_FUNDS_UNITS * 10n ** BigInt(ASSET_DECIMALS[asset])).toString(),
  }));
  uow.insertLater("WalletAsset", assets);
  recordActivity(uow, { organizationId: auth.organizationId, environment: auth.environment, type: "wallet.created", resourceId: id });
  const dto = toWalletDto({ ...wallet, assets });
  // A sandbox wallet: generated address, simulated test funds.
  emitEvent(uow, {
    organizationId: auth.organizationId,
    environment: auth.environment,
    type: "wallet.created",
    resourceId: id,
    data: dto,
    simulated: true,
  });
  return dto;
}
