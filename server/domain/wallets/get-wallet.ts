import type { AuthContext } from "../../context.ts";
import type { DirectSql } from "../../db/direct-sql.ts";
import { notFound } from "../../errors/service-error.ts";
import { toWalletDto, type WalletDto, type WalletWithAssets } from "./wallet-dto.ts";

// One statement for the wallet and its per-asset balances: this read is on the benchmarked hot path, so it runs on the
// driver directly (see server/db/direct-sql.ts) rather than as a Prisma query with an include.
const FIND_WALLET = `
SELECT w."id", w."address", w."chain", w."label", w."createdAt",
       COALESCE(json_agg(json_build_object('asset', a."asset", 'balanceMinor', a."balanceMinor"::text))
                FILTER (WHERE a."asset" IS NOT NULL), '[]'::json) AS "assets"
  FROM "Wallet" w
  LEFT JOIN "WalletAsset" a ON a."walletId" = w."id"
 WHERE w."id" = $1 AND w."organizationId" = $2 AND w."environment" = $3
 GROUP BY w."id"`;

export async function findWallet(sql: DirectSql, auth: AuthContext, id: string): Promise<WalletWithAssets> {
  // Another organization's (or environment's) wallet is indistinguishable from a missing one.
  const [wallet] = await sql.query<WalletWithAssets>(FIND_WALLET, [id, auth.organizationId, auth.environment]);
  if (!wallet) throw notFound("Wallet");
  return wallet;
}

export async function getWallet({ sql, auth, id }: { sql: DirectSql; auth: AuthContext; id: string }): Promise<WalletDto> {
  return toWalletDto(await findWallet(sql, auth, id));
}
