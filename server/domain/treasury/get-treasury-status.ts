// Treasury status: total supply read on chain; circulating supply, reserve ratio and peg price only from a connected
// source, else null with reason `source_not_connected` (never estimated, never derived from total supply).
import type { AuthContext } from "../../context.ts";
import type { Db } from "../../db/open-database.ts";
import type { components } from "../../generated/openapi.ts";
import { assertTokenAddress } from "./addresses.ts";
import { readToken } from "./read-token.ts";
import { readReserveSource } from "./reserve-source.ts";
import { resolveChainReader } from "./resolve-chain-reader.ts";

type TreasuryStatus = components["schemas"]["TreasuryStatus"];
type SourcedValue = components["schemas"]["SourcedValue"];

const NOT_CONNECTED: SourcedValue = { value: null, reason: "source_not_connected", source: null };

export async function getTreasuryStatus(options: {
  prisma: Db;
  auth: AuthContext;
  request: components["schemas"]["TreasuryStatusRequest"];
}): Promise<TreasuryStatus> {
  const { prisma, auth, request } = options;
  const chain = request.chain ?? "sandbox";
  const contractAddress = assertTokenAddress(request.contractAddress, "VALIDATION_ERROR");
  const reader = await resolveChainReader(prisma, auth, chain);
  const reading = await readToken({
    prisma,
    auth,
    reader,
    chain,
    contractAddress,
    notATokenCode: "NOT_FOUND",
    path: "/body/contractAddress",
  });
  const source = await readReserveSource(prisma, auth, chain, contractAddress);
  const sourced = (value: string | null | undefined): SourcedValue =>
    source && value !== null && value !== undefined ? { value, reason: null, source: source.label } : NOT_CONNECTED;
  const circulatingSupply = sourced(source?.report.circulatingSupplyMinor);
  const reserveRatio = sourced(source?.report.reserveRatio);
  const pegPrice = sourced(source?.report.pegPrice);
  const fromSource = [circulatingSupply, reserveRatio, pegPrice].some((v) => v.source !== null);
  return {
    contractAddress,
    chain,
    asset: request.asset ?? (reading.symbol || "UNKNOWN").slice(0, 64),
    totalSupply: {
      valueMinor: reading.totalSupplyMinor,
      decimals: reading.decimals,
      source: reader.label,
      blockNumber: reading.blockNumber,
    },
    circulatingSupply,
    reserveRatio,
    pegPrice,
    simulated: reader.simulated || (fromSource && Boolean(source?.simulated)),
    asOf: new Date().toISOString(),
  };
}
