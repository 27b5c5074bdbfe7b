import type { AuthContext } from "../../context.ts";
import type { Db } from "../../db/open-database.ts";
import type { components } from "../../generated/openapi.ts";
import { toWalletDto } from "./wallet-dto.ts";

export interface ListWalletsOptions {
  prisma: Db;
  auth: AuthContext;
  limit: number;
  offset: number;
}

export async function listWallets({ prisma, auth, limit, offset }: ListWalletsOptions): Promise<components["schemas"]["WalletList"]> {
  const where = { organizationId: auth.organizationId, environment: auth.environment };
  const [count, wallets] = await Promise.all([
    prisma.wallet.count({ where }),
    prisma.wallet.findMany({
      where,
      include: { assets: true },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      take: limit,
      skip: offset,
    }),
  ]);
  return { count, limit, offset, data: wallets.map(toWalletDto) };
}
