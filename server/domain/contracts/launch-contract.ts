// Stage 7: registers the verified token as an issuer of the organization, with the deployment's signers as its
// authorised signers — after checking on chain that each still holds MINTER_ROLE and BURNER_ROLE.
import type { Abi, Hex } from "viem";
import { sandboxChainFor } from "../../chain/sandbox-chain.ts";
import { sandboxChainLogIn } from "../../db/sandbox-chain-log-store.ts";
import type { UnitOfWork } from "../../db/unit-of-work/index.ts";
import { ServiceError } from "../../errors/service-error.ts";
import type { components } from "../../generated/openapi.ts";
import { newId } from "../../lib/ids.ts";
import { recordActivity } from "../activity/record-activity.ts";
import type { ContractArtifact } from "./compile-contract.ts";
import { type CompletedStage, completeStage, failStage, loadRunnableProject, type OnChainStageOptions } from "./lifecycle.ts";

type IssuerDto = components["schemas"]["Issuer"];
type DeployOutput = components["schemas"]["DeployOutput"];

/** One transaction: the sandbox chain is in process, and its log is read through the request's transaction. */
export async function launchContract(uow: UnitOfWork, options: OnChainStageOptions): Promise<CompletedStage<IssuerDto>> {
  const { chainLog, auth, projectId } = options;
  const project = await loadRunnableProject(uow.tx, auth, projectId, "launch");
  const abi = (project.artifact as ContractArtifact).abi as Abi;
  const deployment = project.deployment as DeployOutput;
  const contract = deployment.contractAddress;
  const onChain = await sandboxChainFor(chainLog).read(async (view) => {
    const minter = await view.read<Hex>(contract, abi, "MINTER_ROLE");
    const burner = await view.read<Hex>(contract, abi, "BURNER_ROLE");
    const unauthorised: string[] = [];
    for (const signer of deployment.signers) {
      const ok =
        (await view.read<boolean>(contract, abi, "hasRole", [minter, signer])) &&
        (await view.read<boolean>(contract, abi, "hasRole", [burner, signer]));
      if (!ok) unauthorised.push(signer);
    }
    return {
      unauthorised,
      symbol: await view.read<string>(contract, abi, "symbol"),
      decimals: Number(await view.read<number>(contract, abi, "decimals")),
    };
  }, sandboxChainLogIn(uow));
  if (onChain.unauthorised.length > 0) {
    throw await failStage(
      uow,
      project,
      "launch",
      new ServiceError("PRECHECK_FAILED", `Signers without MINTER_ROLE and BURNER_ROLE on chain: ${onChain.unauthorised.join(", ")}`, {
        extensions: {
          stage: "launch",
          findings: onChain.unauthorised.map((signer) => ({ signer, missing: "MINTER_ROLE and BURNER_ROLE" })),
        },
      }),
      { unauthorisedSigners: onChain.unauthorised },
    );
  }
  const issuer = {
    id: newId("iss"),
    organizationId: auth.organizationId,
    environment: auth.environment,
    projectId: project.id,
    contractAddress: contract,
    chain: deployment.chain,
    asset: onChain.symbol,
    decimals: onChain.decimals,
    signers: deployment.signers,
    createdAt: uow.now,
  };
  const output: IssuerDto = {
    issuerId: issuer.id,
    projectId: project.id,
    contractAddress: issuer.contractAddress,
    chain: issuer.chain,
    asset: issuer.asset,
    decimals: issuer.decimals,
    signers: issuer.signers,
    createdAt: issuer.createdAt.toISOString(),
  };
  // The stage's compare-and-set first: of two concurrent launches only one registers an issuer.
  const result = await completeStage(uow, project, "launch", output, { issuerId: issuer.id });
  uow.insertLater("Issuer", issuer);
  recordActivity(uow, {
    organizationId: auth.organizationId,
    environment: auth.environment,
    type: "issuer.launched",
    resourceId: issuer.id,
  });
  return result;
}
