import type { AuthContext } from "../../context.ts";
import type { Db } from "../../db/open-database.ts";
import { notFound } from "../../errors/service-error.ts";
import { toWalletDto, type WalletDto } from "./wallet-dto.ts";

export async function findWallet(prisma: Db, auth: AuthContext, id: string) {
  // Another organization's (or environment's) wallet is indistinguishable from a missing one.
  const wallet = await prisma.wallet.findFirst({
    where: { id, organizationId: auth.organizationId, environment: auth.environment },
    include: { assets: true },
  });
  if (!wallet) throw notFound("Wallet");
  return wallet;
}

export async function getWallet({ prisma, auth, id }: { prisma: Db; auth: AuthContext; id: string }): Promise<WalletDto> {
  return toWalletDto(await findWallet(prisma, auth, id));
}
