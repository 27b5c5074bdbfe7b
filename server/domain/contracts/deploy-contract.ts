// Stage 5: deploys the compiled token to the sandbox chain and sets it up (roles, optional initial supply) in a series
// of transactions from the project's sandbox deployer. The sandbox chain is in process (not a provider adapter): the
// chain's log rows, the stage record and the project commit in the request's one transaction; if it rolls back, so does
// the chain.
import type { Abi, Hex } from "viem";
import { encodeDeployData, encodeFunctionData } from "viem";
import { addressOfKey, SANDBOX_CHAIN_ID, sandboxKey, type TxRequest } from "../../chain/evm.ts";
import { ChainTxReverted, sandboxChainFor } from "../../chain/sandbox-chain.ts";
import { sandboxChainLogIn } from "../../db/sandbox-chain-log-store.ts";
import type { UnitOfWork } from "../../db/unit-of-work/index.ts";
import { ServiceError } from "../../errors/service-error.ts";
import type { components } from "../../generated/openapi.ts";
import { toChecksumAddress } from "../../lib/chains/evm-address.ts";
import { recordActivity } from "../activity/record-activity.ts";
import { precheckAddress } from "../treasury/addresses.ts";
import type { ContractArtifact } from "./compile-contract.ts";
import { assertDeploymentTarget } from "./deployment-target.ts";
import { type CompletedStage, completeStage, failStage, loadRunnableProject, type OnChainStageOptions } from "./lifecycle.ts";

type DeployOutput = components["schemas"]["DeployOutput"];
type DeployRequest = components["schemas"]["DeployContractRequest"];

export interface DeployContractOptions extends OnChainStageOptions {
  request: DeployRequest;
}

export async function deployContract(uow: UnitOfWork, options: DeployContractOptions): Promise<CompletedStage<DeployOutput>> {
  const { chainLog, auth, projectId, request } = options;
  const project = await loadRunnableProject(uow.tx, auth, projectId, "deploy");
  assertDeploymentTarget(auth, project.network);
  const signers = request.signers.map((s, i) => precheckAddress(`/body/signers/${i}`, s));
  if (new Set(signers).size !== signers.length) {
    throw new ServiceError("PRECHECK_FAILED", "signers lists an address twice", {
      errors: [{ path: "/body/signers", message: "has duplicates" }],
    });
  }
  const initialSupply = request.initialSupply
    ? { to: precheckAddress("/body/initialSupply/to", request.initialSupply.to), amountMinor: request.initialSupply.amountMinor }
    : null;
  if (initialSupply && BigInt(initialSupply.amountMinor) === 0n) {
    throw new ServiceError("PRECHECK_FAILED", "initialSupply.amountMinor is zero; omit initialSupply instead", {
      errors: [{ path: "/body/initialSupply/amountMinor", message: "is zero" }],
    });
  }
  const artifact = project.artifact as ContractArtifact;
  const abi = artifact.abi as Abi;
  const key = sandboxKey(`deployer:${project.id}`);
  const deployer = toChecksumAddress(addressOfKey(key));
  const admin = request.admin ? precheckAddress("/body/admin", request.admin) : deployer;
  const call = (to: string, functionName: string, args: readonly unknown[], description: string): TxRequest => ({
    to,
    data: encodeFunctionData({ abi, functionName, args } as Parameters<typeof encodeFunctionData>[0]),
    description,
  });
  const meta = { projectId: project.id, abi };

  try {
    return await sandboxChainFor(chainLog).transact(sandboxChainLogIn(uow), async (session) => {
      const deployData = encodeDeployData({ abi, bytecode: artifact.bytecode as Hex, args: [deployer] } as Parameters<
        typeof encodeDeployData
      >[0]);
      const [created] = await session.send(key, [{ data: deployData, description: `deploy ${project.contractName}` }], meta);
      const contract = toChecksumAddress(created?.contractAddress ?? "");
      const view = session.view();
      const role = async (name: string) => view.read<Hex>(contract, abi, name);
      const [minter, burner, pauser, blocklister] = [
        await role("MINTER_ROLE"),
        await role("BURNER_ROLE"),
        await role("PAUSER_ROLE"),
        await role("BLOCKLISTER_ROLE"),
      ];
      const admin0 = await role("DEFAULT_ADMIN_ROLE");
      const setup: TxRequest[] = [];
      for (const signer of signers) {
        setup.push(call(contract, "grantRole", [minter, signer], `grant MINTER_ROLE to ${signer}`));
        setup.push(call(contract, "grantRole", [burner, signer], `grant BURNER_ROLE to ${signer}`));
      }
      setup.push(call(contract, "grantRole", [pauser, admin], `grant PAUSER_ROLE to ${admin}`));
      setup.push(call(contract, "grantRole", [blocklister, admin], `grant BLOCKLISTER_ROLE to ${admin}`));
      if (initialSupply) {
        setup.push(call(contract, "grantRole", [minter, deployer], `grant MINTER_ROLE to the deployer ${deployer} for the initial supply`));
        setup.push(
          call(
            contract,
            "mint",
            [initialSupply.to, BigInt(initialSupply.amountMinor)],
            `mint initial supply ${initialSupply.amountMinor} to ${initialSupply.to}`,
          ),
        );
        setup.push(call(contract, "revokeRole", [minter, deployer], `revoke MINTER_ROLE from the deployer ${deployer}`));
      }
      if (admin !== deployer) {
        setup.push(call(contract, "grantRole", [admin0, admin], `grant DEFAULT_ADMIN_ROLE to ${admin}`));
        setup.push(call(contract, "revokeRole", [admin0, deployer], `revoke DEFAULT_ADMIN_ROLE from the deployer ${deployer}`));
      }
      const sent = [...(created ? [created] : []), ...(await session.send(key, setup, meta))];
      const output: DeployOutput = {
        chain: project.network,
        chainId: Number(SANDBOX_CHAIN_ID),
        contractAddress: contract,
        deployer,
        admin,
        signers,
        initialSupply,
        transactions: sent.map((t) => ({
          hash: t.hash,
          blockNumber: t.blockNumber,
          description: t.description,
          gasUsed: t.gasUsed.toString(),
        })),
        blockNumber: sent[sent.length - 1]?.blockNumber ?? 0,
      };
      // In the chain's session: a lost compare-and-set reverts the chain with it.
      const result = await completeStage(uow, project, "deploy", output, { deployment: output });
      recordActivity(uow, {
        organizationId: auth.organizationId,
        environment: auth.environment,
        type: "contract.deployed",
        resourceId: project.id,
      });
      return result;
    });
  } catch (error) {
    if (!(error instanceof ChainTxReverted)) throw error;
    throw await failStage(
      uow,
      project,
      "deploy",
      new ServiceError("PRECHECK_FAILED", `Deployment failed on the sandbox chain: ${error.message}`, {
        extensions: { stage: "deploy", findings: [{ transaction: error.description, revertReason: error.reason }] },
      }),
      { transaction: error.description, revertReason: error.reason },
    );
  }
}
