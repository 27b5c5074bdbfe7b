// Treasury status: total supply read on chain; circulating supply, reserve ratio and peg price only from a connected
// source, else null with reason `source_not_connected` (never estimated, never derived from total supply).
import type { AuthContext } from "../../context.ts";
import type { Queryable } from "../../db/kysely.ts";
import { sandboxChainLogOf } from "../../db/sandbox-chain-log-store.ts";
import { afterProviderCall, type ProviderStep, type UnitOfWork } from "../../db/unit-of-work/index.ts";
import type { components } from "../../generated/openapi.ts";
import type { OperationOutcome } from "../../spec/operation-types.ts";
import { readToken } from "./read-token.ts";
import { readReserveSource } from "./reserve-source.ts";
import { resolveTokenTarget, type TokenTarget } from "./token-target.ts";

type TreasuryStatus = components["schemas"]["TreasuryStatus"];
type SourcedValue = components["schemas"]["SourcedValue"];

const NOT_CONNECTED: SourcedValue = { value: null, reason: "source_not_connected", source: null };

/**
 * Two transactions, though nothing is written but the idempotency record: the chain reader and the reserve source are
 * provider adapters (a JSON-RPC node waits up to its timeout), called with no transaction open. The first transaction
 * resolves the reader (and answers a replay); the second stores the answer.
 */
export async function getTreasuryStatus(
  uow: UnitOfWork,
  options: {
    auth: AuthContext;
    request: components["schemas"]["TreasuryStatusRequest"];
  },
): Promise<ProviderStep<TreasuryStatus, OperationOutcome<"getTreasuryStatus">>> {
  const { auth, request } = options;
  const target = await resolveTokenTarget(uow.tx, auth, request);
  return afterProviderCall({
    call: (db) => readStatus({ db, auth, request, ...target }),
    onResult: async (_uow, status) => ({ status: 200, body: status }),
  });
}

async function readStatus(
  options: { db: Queryable; auth: AuthContext; request: components["schemas"]["TreasuryStatusRequest"] } & TokenTarget,
): Promise<TreasuryStatus> {
  const { db, auth, request, chain, contractAddress, reader } = options;
  const reading = await readToken({
    chainLog: sandboxChainLogOf(db),
    reader,
    chain,
    contractAddress,
    notATokenCode: "NOT_FOUND",
    path: "/body/contractAddress",
  });
  const source = await readReserveSource(db, auth, chain, contractAddress);
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
