import type { ErrorCode } from "../../errors/codes.ts";
import { ServiceError } from "../../errors/service-error.ts";
import { toChecksumAddress } from "../../lib/chains/evm-address.ts";
import { isValidAddress } from "../chains/addresses.ts";

/** The token address in EIP-55 form; a mixed-case address failing its checksum is `code` (400 or 422). */
export function assertTokenAddress(address: string, code: ErrorCode, path = "/body/contractAddress"): string {
  if (!isValidAddress("ethereum", address)) {
    throw new ServiceError(code, `${path} fails the EIP-55 checksum`, { errors: [{ path, message: "fails the EIP-55 checksum" }] });
  }
  return toChecksumAddress(address);
}

const ZERO = "0x0000000000000000000000000000000000000000";

/** 422 PRECHECK_FAILED unless `address` is a usable EVM account address: a mixed-case address must match its EIP-55
 * checksum, and the zero address is refused. Returns the EIP-55 form. */
export function precheckAddress(path: string, address: string): string {
  if (!isValidAddress("ethereum", address)) {
    throw new ServiceError("PRECHECK_FAILED", `${path} is not a valid EVM address (mixed case must match the EIP-55 checksum)`, {
      errors: [{ path, message: "fails the EIP-55 checksum" }],
    });
  }
  if (address.toLowerCase() === ZERO) {
    throw new ServiceError("PRECHECK_FAILED", `${path} is the zero address`, { errors: [{ path, message: "is the zero address" }] });
  }
  return toChecksumAddress(address);
}
