import type { AuthContext } from "../../context.ts";
import type { Queryable } from "../../db/kysely.ts";
import { assertTokenAddress } from "./addresses.ts";
import { type ResolvedChainReader, resolveChainReader } from "./resolve-chain-reader.ts";

/** The token a treasury read names, and the chain reader that serves its chain. */
export interface TokenTarget {
  chain: string;
  contractAddress: string;
  reader: ResolvedChainReader;
}

/** The first transaction of the treasury reads (status, stress test): the request's chain (`sandbox` unless named), its
 * token address (400 VALIDATION_ERROR when malformed) and the key's chain reader for that chain. */
export async function resolveTokenTarget(
  db: Queryable,
  auth: AuthContext,
  request: { chain?: string; contractAddress: string },
): Promise<TokenTarget> {
  const chain = request.chain ?? "sandbox";
  const contractAddress = assertTokenAddress(request.contractAddress, "VALIDATION_ERROR");
  const reader = await resolveChainReader(db, auth, chain);
  return { chain, contractAddress, reader };
}
