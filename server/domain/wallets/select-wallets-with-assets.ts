import { sql } from "kysely";
import type { AuthContext } from "../../context.ts";
import type { Queryable } from "../../db/kysely.ts";
import { ownedBy } from "../../db/owned-by.ts";

/** The caller's wallets, each with its assets aggregated as JSON (`balanceMinor` as numeric text), in one statement. */
export function selectWalletsWithAssets(db: Queryable, auth: Pick<AuthContext, "organizationId" | "environment">) {
  return db
    .selectFrom("Wallet as w")
    .where(ownedBy(auth, "w"))
    .select((eb) => [
      "w.id",
      "w.address",
      "w.chain",
      "w.label",
      "w.createdAt",
      eb
        .selectFrom("WalletAsset as a")
        .whereRef("a.walletId", "=", "w.id")
        .select((inner) =>
          inner.fn
            .coalesce(
              inner.fn.agg<{ asset: string; balanceMinor: string }[]>("json_agg", [
                inner.fn("json_build_object", [sql.lit("asset"), "a.asset", sql.lit("balanceMinor"), inner.cast("a.balanceMinor", "text")]),
              ]),
              sql<{ asset: string; balanceMinor: string }[]>`'[]'::json`,
            )
            .as("assets"),
        )
        .as("assets"),
    ])
    .$narrowType<{ assets: { asset: string; balanceMinor: string }[] }>();
}
