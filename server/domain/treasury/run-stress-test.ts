// Stress test. Rules: (1) total supply is read on chain; (2) the reserve ratio is scenario.reserveRatio when supplied,
// else the ratio reported by a connected token_issuance reserve source; (3) with neither, 424
// RESERVE_SOURCE_NOT_CONNECTED (never estimated); (4) peg price is not used.
import type { AuthContext } from "../../context.ts";
import type { Queryable } from "../../db/kysely.ts";
import { sandboxChainLogOf } from "../../db/sandbox-chain-log-store.ts";
import { afterProviderCall, type ProviderStep, type UnitOfWork } from "../../db/unit-of-work/index.ts";
import { ServiceError } from "../../errors/service-error.ts";
import type { components } from "../../generated/openapi.ts";
import type { OperationOutcome } from "../../spec/operation-types.ts";
import { assertChainCapability } from "./chain-capabilities.ts";
import { readToken } from "./read-token.ts";
import { chooseReserveRatio } from "./reserve-ratio.ts";
import { readReserveSource } from "./reserve-source.ts";
import { runStress } from "./stress-math.ts";
import { resolveTokenTarget, type TokenTarget } from "./token-target.ts";

type StressTestResult = components["schemas"]["StressTestResult"];
type StressTestRequest = components["schemas"]["StressTestRequest"];

/**
 * Two transactions, though nothing is written but the idempotency record: the reserve source and the chain reader are
 * provider adapters (a JSON-RPC node waits up to its timeout), called with no transaction open. The first transaction
 * resolves the reader and checks the capability (and answers a replay); the second stores the answer.
 */
export async function runTreasuryStressTest(
  uow: UnitOfWork,
  options: {
    auth: AuthContext;
    request: StressTestRequest;
  },
): Promise<ProviderStep<StressTestResult, OperationOutcome<"runTreasuryStressTest">>> {
  const { auth, request } = options;
  const target = await resolveTokenTarget(uow.tx, auth, request);
  await assertChainCapability(uow.tx, auth.organizationId, target.chain, "stressTest");
  return afterProviderCall({
    call: (db) => stress({ db, auth, request, ...target }),
    onResult: async (_uow, result) => ({ status: 200, body: result }),
  });
}

async function stress(options: { db: Queryable; auth: AuthContext; request: StressTestRequest } & TokenTarget): Promise<StressTestResult> {
  const { db, auth, request, chain, contractAddress, reader } = options;

  // Rules 2 and 3: the ratio's source, decided before any chain read.
  const { reserveRatio, reserveRatioSource, simulated } = await chooseReserveRatio(request.scenario.reserveRatio, () =>
    readReserveSource(db, auth, chain, contractAddress),
  );

  // Rule 1: total supply on chain.
  const reading = await readToken({
    chainLog: sandboxChainLogOf(db),
    reader,
    chain,
    contractAddress,
    notATokenCode: "PRECHECK_FAILED",
    path: "/body/contractAddress",
  });
  if (request.asset !== undefined && reading.symbol !== request.asset) {
    throw new ServiceError("PRECHECK_FAILED", `asset ${request.asset} is not the token's symbol() (${reading.symbol ?? "unreadable"})`, {
      errors: [{ path: "/body/asset", message: "differs from the contract's symbol()" }],
    });
  }
  const totalSupplyMinor = BigInt(reading.totalSupplyMinor);
  if (totalSupplyMinor === 0n) {
    throw new ServiceError("PRECHECK_FAILED", "The token's total supply is zero: there is nothing to stress", {
      errors: [{ path: "/body/contractAddress", message: "total supply is zero" }],
    });
  }

  // Rule 4: pegDeviation is recorded, never used in the arithmetic.
  const scenario = {
    reserveRatio: request.scenario.reserveRatio ?? null,
    redemptionShockPercent: request.scenario.redemptionShockPercent,
    reserveHaircutPercent: request.scenario.reserveHaircutPercent ?? "0",
    pegDeviation: request.scenario.pegDeviation ?? "0",
    horizonDays: request.scenario.horizonDays ?? 30,
  };
  const results = runStress({
    totalSupplyMinor,
    reserveRatio,
    redemptionShockPercent: scenario.redemptionShockPercent,
    reserveHaircutPercent: scenario.reserveHaircutPercent,
    horizonDays: scenario.horizonDays,
  });
  return {
    contractAddress,
    chain,
    asset: request.asset ?? (reading.symbol || "UNKNOWN").slice(0, 64),
    inputs: {
      totalSupplyMinor: reading.totalSupplyMinor,
      decimals: reading.decimals,
      totalSupplySource: reader.label,
      blockNumber: reading.blockNumber,
      reserveRatio,
      reserveRatioSource,
      scenario,
    },
    results,
    simulated,
    asOf: new Date().toISOString(),
  };
}
