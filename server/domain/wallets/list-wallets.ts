import type { AuthContext } from "../../context.ts";
import type { Queryable } from "../../db/kysely.ts";
import { ownedBy } from "../../db/owned-by.ts";
import type { components } from "../../generated/openapi.ts";
import { selectWalletsWithAssets } from "./select-wallets-with-assets.ts";
import { toWalletDto } from "./wallet-dto.ts";

export interface ListWalletsOptions {
  auth: AuthContext;
  limit: number;
  offset: number;
}

export async function listWallets(
  db: Queryable,
  { auth, limit, offset }: ListWalletsOptions,
): Promise<components["schemas"]["WalletList"]> {
  const [counted, wallets] = await Promise.all([
    db
      .selectFrom("Wallet")
      .where(ownedBy(auth))
      .select((eb) => eb.fn.countAll<string>().as("count"))
      .executeTakeFirstOrThrow(),
    selectWalletsWithAssets(db, auth).orderBy("w.createdAt", "desc").orderBy("w.id", "desc").limit(limit).offset(offset).execute(),
  ]);
  return { count: Number(counted.count), limit, offset, data: wallets.map(toWalletDto) };
}
