import type { AuthContext } from "../../context.ts";
import type { Queryable } from "../../db/kysely.ts";
import { precompiled } from "../../db/precompiled-query.ts";
import { notFound } from "../../errors/service-error.ts";
import { selectWalletsWithAssets } from "./select-wallets-with-assets.ts";
import { toWalletDto, type WalletDto, type WalletWithAssets } from "./wallet-dto.ts";

const findWalletById = precompiled((db, p: { id: string; organizationId: string; environment: AuthContext["environment"] }) =>
  selectWalletsWithAssets(db, { organizationId: p.organizationId, environment: p.environment }).where("w.id", "=", p.id),
);

/** One statement for the wallet and its per-asset balances (this read is on the benchmarked hot path). */
export async function findWallet(db: Queryable, auth: AuthContext, id: string): Promise<WalletWithAssets> {
  // Another organization's (or environment's) wallet is indistinguishable from a missing one.
  const [wallet] = await findWalletById.execute(db, { id, organizationId: auth.organizationId, environment: auth.environment });
  if (!wallet) throw notFound("Wallet");
  return wallet;
}

export async function getWallet(db: Queryable, { auth, id }: { auth: AuthContext; id: string }): Promise<WalletDto> {
  return toWalletDto(await findWallet(db, auth, id));
}
