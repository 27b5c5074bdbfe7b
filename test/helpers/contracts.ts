// Drives a contract project from generate through launch over HTTP (used by the contract and treasury tests).
import { expect } from "vitest";
import type { api } from "./test-server.ts";
import { idem } from "./v2.ts";

export const SIGNER = "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359";
export const TREASURY = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed";
export const HOLDER = "0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB";
export const INITIAL_SUPPLY = "1000000000000"; // 1,000,000.000000

type Call = ReturnType<typeof api>;

export interface LaunchedToken {
  projectId: string;
  issuerId: string;
  contractAddress: string;
  asset: string;
}

export async function launchToken(
  call: Call,
  options: { asset?: string; signers?: string[]; initialSupply?: { to: string; amountMinor: string } | null } = {},
): Promise<LaunchedToken> {
  const asset = options.asset ?? "CPUSD";
  const generated = await call("POST", "/api/v2/agent/contracts/generate", { asset, network: "sandbox" }, idem());
  expect(generated.status, generated.text).toBe(201);
  const projectId = generated.json.projectId as string;
  const stage = async (name: string, body?: unknown) => {
    const res = await call("POST", `/api/v2/agent/contracts/${projectId}/${name}`, body, idem());
    expect(res.status, `${name}: ${res.text}`).toBe(200);
    return res.json;
  };
  await stage("compile");
  await stage("validate");
  await stage("simulate");
  const initialSupply = options.initialSupply === undefined ? { to: TREASURY, amountMinor: INITIAL_SUPPLY } : options.initialSupply;
  const deployed = await stage("deploy", { signers: options.signers ?? [SIGNER], ...(initialSupply ? { initialSupply } : {}) });
  await stage("verify");
  const launched = await stage("launch");
  return { projectId, issuerId: launched.output.issuerId, contractAddress: deployed.output.contractAddress, asset };
}
