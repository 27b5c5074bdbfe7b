// EVM plumbing shared by the sandbox chain and the simulate stage: one chain configuration, fresh VMs, signing, calls.
import { createCustomCommon, Hardfork, Mainnet } from "@ethereumjs/common";
import { createFeeMarket1559Tx, createTxFromRLP, type TypedTransaction } from "@ethereumjs/tx";
import { type Address, bytesToHex, createAddressFromPrivateKey, createAddressFromString, hexToBytes } from "@ethereumjs/util";
import { createVM, runTx, type VM } from "@ethereumjs/vm";
import { type Abi, decodeErrorResult, decodeFunctionResult, encodeFunctionData, type Hex, keccak256, toHex } from "viem";

/** Chain id of the in-process sandbox chain (documented in the spec). */
export const SANDBOX_CHAIN_ID = 7_357_001n;
/** solc's `evmVersion` and the VM's hardfork: kept together so compiled code runs as compiled. */
export const EVM_VERSION = "cancun";
const GAS_LIMIT = 15_000_000n;
/** Above the default block base fee; the sandbox never charges for gas (`skipBalance`). */
const MAX_FEE_PER_GAS = 10_000_000_000n;

export const sandboxCommon = () =>
  createCustomCommon({ chainId: Number(SANDBOX_CHAIN_ID), name: "coinplane-sandbox" }, Mainnet, { hardfork: Hardfork.Cancun });

export async function newVm(): Promise<VM> {
  return createVM({ common: sandboxCommon() });
}

/** A private key derived from a label: the sandbox's deterministic accounts (deployers, simulation actors). They hold
 * nothing outside the sandbox; deriving them avoids storing secrets. */
export function sandboxKey(label: string): Uint8Array {
  return hexToBytes(keccak256(toHex(`coinplane:sandbox:${label}`)));
}

export const addressOfKey = (key: Uint8Array): string => createAddressFromPrivateKey(key).toString();
export const toAddress = (address: string): Address => createAddressFromString(address.toLowerCase());

export interface TxRequest {
  /** undefined → contract creation. */
  to?: string;
  data: Hex;
  description: string;
}

export function signTx(vm: VM, key: Uint8Array, nonce: bigint, request: TxRequest): TypedTransaction {
  return createFeeMarket1559Tx(
    {
      chainId: SANDBOX_CHAIN_ID,
      nonce,
      maxFeePerGas: MAX_FEE_PER_GAS,
      maxPriorityFeePerGas: 0n,
      gasLimit: GAS_LIMIT,
      to: request.to as Hex | undefined,
      data: request.data,
    },
    { common: vm.common },
  ).sign(key);
}

export const parseRawTx = (vm: VM, raw: string): TypedTransaction => createTxFromRLP(hexToBytes(raw as Hex), { common: vm.common });

export interface AppliedTx {
  hash: Hex;
  raw: Hex;
  from: string;
  to: string | null;
  contractAddress: string | null;
  gasUsed: bigint;
  /** Revert reason (decoded custom error or message) when the transaction failed. */
  error: string | null;
  returnData: Hex;
}

/** Runs a signed transaction on the VM (no block context; the sandbox does not charge for gas). */
export async function applyTx(vm: VM, tx: TypedTransaction, abi?: Abi): Promise<AppliedTx> {
  const result = await runTx(vm, { tx, skipBalance: true, skipBlockGasLimitValidation: true });
  const returnData = bytesToHex(result.execResult.returnValue) as Hex;
  const exception = result.execResult.exceptionError;
  return {
    hash: bytesToHex(tx.hash()) as Hex,
    raw: bytesToHex(tx.serialize()) as Hex,
    from: tx.getSenderAddress().toString(),
    to: tx.to ? tx.to.toString() : null,
    contractAddress: result.createdAddress ? result.createdAddress.toString() : null,
    gasUsed: result.totalGasSpent,
    error: exception ? describeRevert(exception.error, returnData, abi) : null,
    returnData,
  };
}

export interface CallResult {
  ok: boolean;
  returnData: Hex;
  error: string | null;
}

/** An eth_call: runs `data` against `to` and leaves the state untouched. */
export async function staticCall(vm: VM, to: string, data: Hex, from = "0x0000000000000000000000000000000000000000"): Promise<CallResult> {
  await vm.stateManager.checkpoint();
  try {
    const result = await vm.evm.runCall({
      caller: toAddress(from),
      to: toAddress(to),
      data: hexToBytes(data),
      gasLimit: GAS_LIMIT,
      skipBalance: true,
    });
    const returnData = bytesToHex(result.execResult.returnValue) as Hex;
    const exception = result.execResult.exceptionError;
    return { ok: !exception, returnData, error: exception ? describeRevert(exception.error, returnData) : null };
  } finally {
    await vm.stateManager.revert();
  }
}

/** Calls a view function and decodes its result; throws CallFailed when it reverts or returns nothing decodable. */
export async function readFunction<T>(vm: VM, to: string, abi: Abi, functionName: string, args: readonly unknown[] = []): Promise<T> {
  const data = encodeFunctionData({ abi, functionName, args } as Parameters<typeof encodeFunctionData>[0]);
  const result = await staticCall(vm, to, data);
  if (!result.ok) throw new CallFailed(`${functionName} reverted: ${result.error}`);
  try {
    return decodeFunctionResult({ abi, functionName, data: result.returnData } as Parameters<typeof decodeFunctionResult>[0]) as T;
  } catch {
    throw new CallFailed(`${functionName} returned no decodable result`);
  }
}

export class CallFailed extends Error {}

export async function getCode(vm: VM, address: string): Promise<Hex> {
  return bytesToHex(await vm.stateManager.getCode(toAddress(address))) as Hex;
}

function describeRevert(error: string, returnData: Hex, abi?: Abi): string {
  if (returnData === "0x" || !abi) return error;
  try {
    const decoded = decodeErrorResult({ abi, data: returnData });
    return `${error}: ${decoded.errorName}(${(decoded.args ?? []).map(String).join(", ")})`;
  } catch {
    return `${error}: ${returnData.slice(0, 10)}`;
  }
}
