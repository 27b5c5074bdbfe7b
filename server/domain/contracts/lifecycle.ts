// The contract lifecycle state machine: seven stages in a fixed order. A stage runs only on a project whose last
// completed stage is the one before it (else 409 STATE_CONFLICT); a failed run leaves the project where it was.
import type { Selectable } from "kysely";
import type { SandboxChainLogStore } from "../../chain/sandbox-chain-log.ts";
import type { AuthContext } from "../../context.ts";
import { compareAndSet } from "../../db/compare-and-set.ts";
import type { DB, Queryable } from "../../db/kysely.ts";
import { findOwned } from "../../db/owned-by.ts";
import type { UnitOfWork } from "../../db/unit-of-work/index.ts";
import { ServiceError } from "../../errors/service-error.ts";
import type { components } from "../../generated/openapi.ts";
import { newId } from "../../lib/ids.ts";
import { emitEvent } from "../events/emit-event.ts";
import type { EventType } from "../events/event-types.ts";

export type StageName = components["schemas"]["LifecycleStageName"];
export type ProjectStage = components["schemas"]["ProjectStage"];
export type ContractProjectDto = components["schemas"]["ContractProject"];
export type ContractProjectSummaryDto = components["schemas"]["ContractProjectSummary"];
/** A project as stored (artifact and deployment parsed, timestamps as Date). */
export type ContractProject = Selectable<DB["ContractProject"]>;
export type ContractStageRun = Pick<Selectable<DB["ContractStageRun"]>, "stage" | "status" | "output" | "createdAt">;

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
export async function findProject(db: Queryable, auth: AuthContext, projectId: string): Promise<ContractProject> {
  return findOwned(db, "ContractProject", projectId, auth, "Contract project");
}

export async function loadRunnableProject(db: Queryable, auth: AuthContext, projectId: string, stage: StageName): Promise<ContractProject> {
  const project = await findProject(db, auth, projectId);
  assertCanRun(project, stage);
  return project;
}

/** What a stage on the sandbox chain takes (deploy, verify, launch) after its unit of work: one transaction, as the
 * chain is in process. */
export interface OnChainStageOptions {
  /** The chain's log on the database (the data part's sandboxChainLogOf(db), never a transaction): names this process's
   * sandbox chain. */
  chainLog: SandboxChainLogStore;
  auth: AuthContext;
  projectId: string;
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
 * In the unit of work: moves the project from the stage before `stage` to `stage` (compare-and-set on version and
 * stage, so of two concurrent runs one wins and the other gets 409), applies `data`, and records the run's output.
 */
export async function completeStage<T>(
  uow: UnitOfWork,
  project: ContractProject,
  stage: StageName,
  output: T,
  data: { source?: string; sourceSha256?: string; artifact?: object; deployment?: object; issuerId?: string } = {},
): Promise<CompletedStage<T>> {
  const now = uow.now;
  const updated = await compareAndSet(
    uow.tx,
    "ContractProject",
    project,
    {
      ...(data.source !== undefined ? { source: data.source } : {}),
      ...(data.sourceSha256 !== undefined ? { sourceSha256: data.sourceSha256 } : {}),
      ...(data.artifact !== undefined ? { artifact: JSON.stringify(data.artifact) } : {}),
      ...(data.deployment !== undefined ? { deployment: JSON.stringify(data.deployment) } : {}),
      stage: PAST[stage],
      updatedAt: now,
    },
    (eb) => eb("stage", "=", requiredStageFor(stage)),
  );
  if (!updated) {
    throw new ServiceError("STATE_CONFLICT", `Project ${project.id} changed concurrently (another ${stage} won); read it again`, {
      extensions: { stage },
    });
  }
  uow.insertLater("ContractStageRun", {
    id: newId("csr"),
    projectId: project.id,
    organizationId: project.organizationId,
    environment: project.environment,
    stage,
    status: "completed",
    output: JSON.stringify(output),
    createdAt: now,
  });
  await emitContractEvent(
    uow,
    STAGE_EVENT[stage],
    updated,
    { stage, status: "completed", output, createdAt: now },
    {
      issuerId: data.issuerId,
    },
  );
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

/** Records a failed run and returns the error to throw. The row and its contract.stage_failed event are kept when the
 * unit of work rolls back on that error (stored with the key's answer); the project stays at its stage, and the stage
 * can run again. */
export async function failStage(
  uow: UnitOfWork,
  project: ContractProject,
  stage: StageName,
  error: ServiceError,
  details: object,
): Promise<ServiceError> {
  const output = { failure: { code: error.code, detail: error.message, ...details } };
  uow.insertLater(
    "ContractStageRun",
    {
      id: newId("csr"),
      projectId: project.id,
      organizationId: project.organizationId,
      environment: project.environment,
      stage,
      status: "failed",
      output: JSON.stringify(output),
      createdAt: uow.now,
    },
    { keepOnError: true },
  );
  await emitContractEvent(
    uow,
    "contract.stage_failed",
    project,
    { stage, status: "failed", output, createdAt: uow.now },
    { keepOnError: true },
  );
  return error;
}

/** What lists show of a project: everything but its source and its stages (their outputs hold the ABI and bytecode). */
export const SUMMARY_COLUMNS = [
  "id",
  "template",
  "asset",
  "tokenName",
  "decimals",
  "network",
  "stage",
  "contractName",
  "sourceSha256",
  "version",
  "createdAt",
  "updatedAt",
] as const;

export function toProjectSummary(
  project: Pick<ContractProject, (typeof SUMMARY_COLUMNS)[number]>,
  issuerId: string | null,
): ContractProjectSummaryDto {
  return {
    projectId: project.id,
    template: project.template as ContractProjectDto["template"],
    asset: project.asset,
    tokenName: project.tokenName,
    decimals: project.decimals,
    network: project.network as ContractProjectDto["network"],
    stage: project.stage as ProjectStage,
    contractName: project.contractName,
    sourceSha256: project.sourceSha256,
    issuerId,
    version: project.version,
    createdAt: project.createdAt.toISOString(),
    updatedAt: project.updatedAt.toISOString(),
  };
}

export function toProjectDto(project: ContractProject, runs: ContractStageRun[], issuerId: string | null): ContractProjectDto {
  const latest = new Map<string, ContractStageRun>();
  for (const run of runs) {
    const seen = latest.get(run.stage);
    if (!seen || run.createdAt >= seen.createdAt) latest.set(run.stage, run);
  }
  return {
    ...toProjectSummary(project, issuerId),
    stages: STAGES.map((name) => {
      const run = latest.get(name);
      return {
        name,
        status: run ? (run.status as "completed" | "failed") : "pending",
        completedAt: run ? run.createdAt.toISOString() : null,
        output: run ? (run.output as Record<string, unknown>) : null,
      };
    }),
    source: project.source,
  };
}

/** The project's runs, oldest first (the DTO keeps the latest per stage). */
export function selectStageRuns(db: Queryable, projectId: string) {
  return db
    .selectFrom("ContractStageRun")
    .select(["stage", "status", "output", "createdAt"])
    .where("projectId", "=", projectId)
    .orderBy("createdAt", "asc")
    .orderBy("id", "asc");
}

/** The event of each completed stage (generate writes its project itself: generate-contract.ts). */
export const STAGE_EVENT = {
  generate: "contract.created",
  compile: "contract.compiled",
  validate: "contract.validated",
  simulate: "contract.simulated",
  deploy: "contract.deployed",
  verify: "contract.verified",
  launch: "contract.launched",
} as const satisfies Record<StageName, EventType>;

/** Stages run on the sandbox chain (a simulator) when the project's network is `sandbox`. */
const ON_CHAIN: ReadonlySet<StageName> = new Set(["deploy", "verify", "launch"]);

/**
 * The lifecycle's events (contract.created, contract.<stage past tense>, contract.stage_failed) with the project as
 * GET contracts/projects/{id} answers it: `project` as stored after this request's change, `run` the run this unit of
 * work writes at commit (not readable yet), added to the earlier runs read in the transaction (one statement).
 */
export async function emitContractEvent(
  uow: UnitOfWork,
  type: EventType & `contract.${string}`,
  project: ContractProject,
  run: ContractStageRun,
  options: { issuerId?: string | null; keepOnError?: boolean } = {},
): Promise<void> {
  const earlier = await selectStageRuns(uow.tx, project.id).execute();
  emitEvent(uow, {
    organizationId: project.organizationId,
    environment: project.environment,
    type,
    resourceId: project.id,
    data: toProjectDto(project, [...earlier, run], options.issuerId ?? null),
    ...(ON_CHAIN.has(run.stage as StageName) ? { simulated: project.network === "sandbox" } : {}),
    keepOnError: options.keepOnError,
  });
}
