// Reads an ERC-20 through a resolved chain reader and maps reader failures to the endpoint's codes.
import type { SandboxChainLogStore } from "../../chain/sandbox-chain-log.ts";
import type { ErrorCode } from "../../errors/codes.ts";
import { ServiceError } from "../../errors/service-error.ts";
import { ChainReadError, type Erc20Reading } from "../../providers/capabilities/treasury.ts";
import type { ResolvedChainReader } from "./resolve-chain-reader.ts";

export interface ReadTokenOptions {
  /** The sandbox chain's log on the database, never a transaction (the data part's sandboxChainLogOf(db)): what the
   * sandbox chain reader reads (see ChainReadContext). */
  chainLog: SandboxChainLogStore;
  reader: ResolvedChainReader;
  chain: string;
  contractAddress: string;
  holders?: string[];
  /** The code for "this address holds no ERC-20" (status: NOT_FOUND; stress test and burn: PRECHECK_FAILED). */
  notATokenCode: ErrorCode;
  /** Request path of the address, for `errors`. */
  path: string;
}

export async function readToken(options: ReadTokenOptions): Promise<Erc20Reading> {
  const { chainLog, reader, chain, contractAddress, holders, notATokenCode, path } = options;
  try {
    return await reader.api.readErc20({ sandboxChainLog: chainLog, config: reader.config, chain, contractAddress, holders });
  } catch (error) {
    if (!(error instanceof ChainReadError)) throw error;
    if (error.kind === "not_a_token") {
      throw new ServiceError(notATokenCode, `${contractAddress} holds no ERC-20 token on ${chain}`, {
        errors: [{ path, message: `holds no ERC-20 token on ${chain}` }],
      });
    }
    throw new ServiceError("SOURCE_NOT_AVAILABLE", `The chain reader (${reader.label}) could not read ${chain}: ${error.message}`, {
      retryAfterSeconds: 5,
    });
  }
}
