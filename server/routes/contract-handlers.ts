// Contract lifecycle: templates, generate, read, and the stages compile → validate → simulate → deploy → verify → launch.
import { sandboxChainLogOf } from "../db/sandbox-chain-log-store.ts";
import { compileContract } from "../domain/contracts/compile-contract.ts";
import { deployContract } from "../domain/contracts/deploy-contract.ts";
import { generateContract } from "../domain/contracts/generate-contract.ts";
import { getContractProject } from "../domain/contracts/get-contract-project.ts";
import { launchContract } from "../domain/contracts/launch-contract.ts";
import { listContractProjects } from "../domain/contracts/list-contract-projects.ts";
import { listContractTemplates } from "../domain/contracts/list-contract-templates.ts";
import { simulateContract } from "../domain/contracts/simulate-contract.ts";
import { validateContract } from "../domain/contracts/validate-contract.ts";
import { verifyContract } from "../domain/contracts/verify-contract.ts";
import { pageWindow } from "../domain/lists/page-window.ts";
import { type Routes, route } from "./route.ts";

export const contractRoutes: Routes = [
  route("listContractTemplates", () => ({ status: 200, body: listContractTemplates() })),
  route("generateContract", ({ body, auth, respond }) =>
    respond(async (uow) => ({ status: 201, body: await generateContract(uow, { auth, request: body }) })),
  ),
  route("listContractProjects", async ({ query, auth, deps }) => ({
    status: 200,
    body: await listContractProjects(deps.db.kysely, { auth, window: pageWindow(query), stage: query.stage }),
  })),
  route("getContractProject", async ({ path, auth, deps }) => ({
    status: 200,
    body: await getContractProject(deps.db.kysely, { auth, projectId: path.projectId }),
  })),
  route("compileContract", ({ path, body, auth, respond }) =>
    respond((uow) => compileContract(uow, { auth, projectId: path.projectId, request: body ?? {} })),
  ),
  route("validateContract", ({ path, auth, respond }) =>
    respond(async (uow) => ({ status: 200, body: await validateContract(uow, { auth, projectId: path.projectId }) })),
  ),
  route("simulateContract", ({ path, auth, respond }) => respond((uow) => simulateContract(uow, { auth, projectId: path.projectId }))),
  route("deployContract", ({ path, body, auth, deps, respond }) =>
    respond(async (uow) => ({
      status: 200,
      body: await deployContract(uow, { chainLog: sandboxChainLogOf(deps.db.kysely), auth, projectId: path.projectId, request: body }),
    })),
  ),
  route("verifyContract", ({ path, auth, deps, respond }) =>
    respond(async (uow) => ({
      status: 200,
      body: await verifyContract(uow, { chainLog: sandboxChainLogOf(deps.db.kysely), auth, projectId: path.projectId }),
    })),
  ),
  route("launchContract", ({ path, auth, deps, respond }) =>
    respond(async (uow) => ({
      status: 200,
      body: await launchContract(uow, { chainLog: sandboxChainLogOf(deps.db.kysely), auth, projectId: path.projectId }),
    })),
  ),
];
