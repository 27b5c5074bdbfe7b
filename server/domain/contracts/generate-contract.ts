import { createHash } from "node:crypto";
import type { AuthContext } from "../../context.ts";
import type { components } from "../../generated/openapi.ts";
import type { Tx } from "../../idempotency/idempotency-store.ts";
import { newId } from "../../lib/ids.ts";
import { recordActivity } from "../activity/record-activity.ts";
import { assertDeploymentTarget } from "./deployment-target.ts";
import { type ContractProjectDto, toProjectDto } from "./lifecycle.ts";
import { findTemplate } from "./templates.ts";

export interface GenerateContractOptions {
  auth: AuthContext;
  request: components["schemas"]["GenerateContractRequest"];
}

export const sha256Hex = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");

/** Stage 1: checks the network can be reached (fail closed), generates the source; returns the write to commit. */
export function generateContract({ auth, request }: GenerateContractOptions): (tx: Tx) => Promise<ContractProjectDto> {
  const templateId = request.template ?? "fiat_backed_stablecoin";
  const asset = request.asset ?? "CPUSD";
  const network = request.network ?? "sandbox";
  assertDeploymentTarget(auth, network);
  const template = findTemplate(templateId);
  if (!template) throw new TypeError(`template ${templateId} is in the spec but not in the catalogue`);
  const generated = template.generate(asset);
  const sourceSha256 = sha256Hex(generated.source);
  return async (tx) => {
    const now = new Date();
    const project = await tx.contractProject.create({
      data: {
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
        createdAt: now,
        updatedAt: now,
      },
    });
    const output = {
      template: templateId,
      asset,
      network,
      contractName: generated.contractName,
      sourceSha256,
    };
    const run = await tx.contractStageRun.create({
      data: {
        id: newId("csr"),
        projectId: project.id,
        organizationId: auth.organizationId,
        environment: auth.environment,
        stage: "generate",
        status: "completed",
        output,
        createdAt: now,
      },
    });
    await recordActivity(tx, {
      organizationId: auth.organizationId,
      environment: auth.environment,
      type: "contract.generated",
      resourceId: project.id,
    });
    return toProjectDto(project, [run], null);
  };
}
