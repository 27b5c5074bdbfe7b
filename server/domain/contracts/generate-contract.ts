import { createHash } from "node:crypto";
import type { AuthContext } from "../../context.ts";
import type { UnitOfWork } from "../../db/unit-of-work/index.ts";
import type { components } from "../../generated/openapi.ts";
import { newId } from "../../lib/ids.ts";
import { recordActivity } from "../activity/record-activity.ts";
import { emitEvent } from "../events/emit-event.ts";
import { assertDeploymentTarget } from "./deployment-target.ts";
import { type ContractProject, type ContractProjectDto, STAGE_EVENT, toProjectDto } from "./lifecycle.ts";
import { findTemplate } from "./templates.ts";

export interface GenerateContractOptions {
  auth: AuthContext;
  request: components["schemas"]["GenerateContractRequest"];
}

export const sha256Hex = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");

/** Stage 1: checks the network can be reached (fail closed), generates the source, and records the project with its
 * first run. Nothing reads them back in this request: both are written at commit. */
export async function generateContract(uow: UnitOfWork, { auth, request }: GenerateContractOptions): Promise<ContractProjectDto> {
  const templateId = request.template ?? "fiat_backed_stablecoin";
  const asset = request.asset ?? "CPUSD";
  const network = request.network ?? "sandbox";
  assertDeploymentTarget(auth, network);
  const template = findTemplate(templateId);
  if (!template) throw new TypeError(`template ${templateId} is in the spec but not in the catalogue`);
  const generated = template.generate(asset);
  const sourceSha256 = sha256Hex(generated.source);
  const now = uow.now;
  const project: ContractProject = {
    id: newId("cprj"),
    organizationId: auth.organizationId,
    environment: auth.environment,
    template: templateId,
    asset,
    tokenName: generated.tokenName,
    decimals: generated.decimals,
    network,
    contractName: generated.contractName,
    source: generated.source,
    sourceSha256,
    stage: "generated",
    artifact: null,
    deployment: null,
    version: 1,
    createdAt: now,
    updatedAt: now,
  };
  const output = { template: templateId, asset, network, contractName: generated.contractName, sourceSha256 };
  uow.insertLater("ContractProject", project);
  uow.insertLater("ContractStageRun", {
    id: newId("csr"),
    projectId: project.id,
    organizationId: auth.organizationId,
    environment: auth.environment,
    stage: "generate",
    status: "completed",
    output: JSON.stringify(output),
    createdAt: now,
  });
  recordActivity(uow, {
    organizationId: auth.organizationId,
    environment: auth.environment,
    type: "contract.generated",
    resourceId: project.id,
  });
  const dto = toProjectDto(project, [{ stage: "generate", status: "completed", output, createdAt: now }], null);
  // Nothing of the project exists before this commit: the event carries the answer itself (no read).
  emitEvent(uow, {
    organizationId: auth.organizationId,
    environment: auth.environment,
    type: STAGE_EVENT.generate,
    resourceId: project.id,
    data: dto,
  });
  return dto;
}
