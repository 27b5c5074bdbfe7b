// The contract lifecycle state machine: seven stages in a fixed order. A stage runs only on a project whose last
// completed stage is the one before it (else 409 STATE_CONFLICT); a failed run leaves the project where it was.
import type { AuthContext } from "../../context.ts";
import type { Db } from "../../db/open-database.ts";
import { notFound, ServiceError } from "../../errors/service-error.ts";
import type { components } from "../../generated/openapi.ts";
import type { ContractProject, ContractStageRun } from "../../generated/prisma/client.ts";
import type { Tx } from "../../idempotency/idempotency-store.ts";
import { newId } from "../../lib/ids.ts";

export type StageName = components["schemas"]["LifecycleStageName"];
export type ProjectStage = components["schemas"]["ProjectStage"];
export type ContractProjectDto = components["schemas"]["ContractProject"];

export const STAGES: readonly StageName[] = ["generate", "compile", "validate", "simulate", "deploy", "verify", "launch"];
export const PAST: Record<StageName, ProjectStage> = {
  generate: "generated",
  compile: "compiled",
  validate: "validated",
  simulate: "simulated",
  deploy: "deployed",
  verify: "verified",
  launch: "launched",
};

/** The stage a project must be at for `stage` to run. */
export function requiredStageFor(stage: StageName): ProjectStage {
  const index = STAGES.indexOf(stage);
  return PAST[STAGES[index - 1] as StageName];
}

/** 409 unless the project's last completed stage is the one before `stage`. */
export function assertCanRun(project: Pick<ContractProject, "id" | "stage">, stage: StageName): void {
  const required = requiredStageFor(stage);
  if (project.stage === required) return;
  const done = STAGES.indexOf(stage) <= STAGES.findIndex((s) => PAST[s] === project.stage);
  throw new ServiceError(
    "STATE_CONFLICT",
    done
      ? `Project ${project.id} is ${project.stage}: ${stage} has already run`
      : `Project ${project.id} is ${project.stage}: ${stage} needs a ${required} project (run the stages in order: ${STAGES.join(", ")})`,
    { extensions: { stage, projectStage: project.stage, requiredStage: required } },
  );
}

/** Loads a project of the key's organization and environment (anything else is 404). */
export async function findProject(db: Db | Tx, auth: AuthContext, projectId: string): Promise<ContractProject> {
  const project = await db.contractProject.findFirst({
    where: { id: projectId, organizationId: auth.organizationId, environment: auth.environment },
  });
  if (!project) throw notFound("Contract project");
  return project;
}

export async function loadRunnableProject(prisma: Db, auth: AuthContext, projectId: string, stage: StageName): Promise<ContractProject> {
  const project = await findProject(prisma, auth, projectId);
  assertCanRun(project, stage);
  return project;
}

export interface CompletedStage<T> {
  projectId: string;
  stage: StageName;
  status: "completed";
  completedAt: string;
  projectStage: ProjectStage;
  version: number;
  output: T;
}

/**
 * Inside the write transaction: moves the project from the stage before `stage` to `stage` (compare-and-set on version
 * and stage, so of two concurrent runs one wins and the other gets 409), applies `data`, and records the run's output.
 */
export async function completeStage<T>(
  tx: Tx,
  project: ContractProject,
  stage: StageName,
  output: T,
  data: Partial<Pick<ContractProject, "source" | "sourceSha256">> & { artifact?: object; deployment?: object } = {},
): Promise<CompletedStage<T>> {
  const now = new Date();
  const { count } = await tx.contractProject.updateMany({
    where: { id: project.id, version: project.version, stage: requiredStageFor(stage) },
    data: { ...data, stage: PAST[stage], version: { increment: 1 }, updatedAt: now },
  });
  if (count === 0) {
    throw new ServiceError("STATE_CONFLICT", `Project ${project.id} changed concurrently (another ${stage} won); read it again`, {
      extensions: { stage },
    });
  }
  await tx.contractStageRun.create({
    data: {
      id: newId("csr"),
      projectId: project.id,
      organizationId: project.organizationId,
      environment: project.environment,
      stage,
      status: "completed",
      output: output as object,
      createdAt: now,
    },
  });
  return {
    projectId: project.id,
    stage,
    status: "completed",
    completedAt: now.toISOString(),
    projectStage: PAST[stage],
    version: project.version + 1,
    output,
  };
}

/** Records a failed run (outside the request's transaction, which does not commit on failure), then returns the error
 * to throw. The project stays at its stage; the stage can run again. */
export async function failStage(
  prisma: Db,
  project: ContractProject,
  stage: StageName,
  error: ServiceError,
  details: object,
): Promise<ServiceError> {
  await prisma.contractStageRun.create({
    data: {
      id: newId("csr"),
      projectId: project.id,
      organizationId: project.organizationId,
      environment: project.environment,
      stage,
      status: "failed",
      output: { failure: { code: error.code, detail: error.message, ...details } },
    },
  });
  return error;
}

export function toProjectDto(project: ContractProject, runs: ContractStageRun[], issuerId: string | null): ContractProjectDto {
  const latest = new Map<string, ContractStageRun>();
  for (const run of runs) {
    const seen = latest.get(run.stage);
    if (!seen || run.createdAt >= seen.createdAt) latest.set(run.stage, run);
  }
  return {
    projectId: project.id,
    template: project.template as ContractProjectDto["template"],
    asset: project.asset,
    tokenName: project.tokenName,
    decimals: project.decimals,
    network: project.network as ContractProjectDto["network"],
    stage: project.stage as ProjectStage,
    stages: STAGES.map((name) => {
      const run = latest.get(name);
      return {
        name,
        status: run ? (run.status as "completed" | "failed") : "pending",
        completedAt: run ? run.createdAt.toISOString() : null,
        output: run ? (run.output as Record<string, unknown>) : null,
      };
    }),
    contractName: project.contractName,
    source: project.source,
    sourceSha256: project.sourceSha256,
    issuerId,
    version: project.version,
    createdAt: project.createdAt.toISOString(),
    updatedAt: project.updatedAt.toISOString(),
  };
}

export async function projectDto(db: Db | Tx, project: ContractProject): Promise<ContractProjectDto> {
  const runs = await db.contractStageRun.findMany({ where: { projectId: project.id }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
  const issuer = await db.issuer.findUnique({ where: { projectId: project.id }, select: { id: true } });
  return toProjectDto(project, runs, issuer?.id ?? null);
}
