// Contract lifecycle: templates, generate, read, and the stages compile → validate → simulate → deploy → verify → launch.
import type { Request, Response } from "express";
import type { Outcome, ProviderStep, UnitOfWork } from "../db/unit-of-work.ts";
import { compileContract } from "../domain/contracts/compile-contract.ts";
import { deployContract } from "../domain/contracts/deploy-contract.ts";
import { generateContract } from "../domain/contracts/generate-contract.ts";
import { getContractProject } from "../domain/contracts/get-contract-project.ts";
import { launchContract } from "../domain/contracts/launch-contract.ts";
import { listContractTemplates } from "../domain/contracts/list-contract-templates.ts";
import { simulateContract } from "../domain/contracts/simulate-contract.ts";
import { validateContract } from "../domain/contracts/validate-contract.ts";
import { verifyContract } from "../domain/contracts/verify-contract.ts";
import type { components } from "../generated/openapi.ts";
import { respondWithUnitOfWork } from "../http/respond-with-unit-of-work.ts";
import { authOf, type HandlerDeps, type HandlerTable, param } from "./handler.ts";

/** respondWithUnitOfWork, for work whose provider step has a result type (its signature says PendingProviderStep). */
const respond = (req: Request, res: Response, deps: HandlerDeps, work: (uow: UnitOfWork) => Promise<Outcome | ProviderStep<unknown>>) =>
  respondWithUnitOfWork(req, res, deps, work as Parameters<typeof respondWithUnitOfWork>[3]);

export const contractHandlers: HandlerTable = {
  listContractTemplates(_req, res) {
    res.json(listContractTemplates());
  },
  async generateContract(req, res, deps) {
    const auth = authOf(req);
    const request = req.body as components["schemas"]["GenerateContractRequest"];
    await respond(req, res, deps, async (uow) => ({ status: 201, body: await generateContract({ uow, auth, request }) }));
  },
  async getContractProject(req, res, deps) {
    res.json(await getContractProject(deps.db.kysely, authOf(req), param(req, "projectId")));
  },
  async compileContract(req, res, deps) {
    const auth = authOf(req);
    const projectId = param(req, "projectId");
    const request = (req.body ?? {}) as components["schemas"]["CompileContractRequest"];
    await respond(req, res, deps, (uow) => compileContract({ uow, auth, projectId, request }));
  },
  async validateContract(req, res, deps) {
    const auth = authOf(req);
    const projectId = param(req, "projectId");
    await respond(req, res, deps, async (uow) => ({ status: 200, body: await validateContract({ uow, auth, projectId }) }));
  },
  async simulateContract(req, res, deps) {
    const auth = authOf(req);
    const projectId = param(req, "projectId");
    await respond(req, res, deps, (uow) => simulateContract({ uow, auth, projectId }));
  },
  async deployContract(req, res, deps) {
    const auth = authOf(req);
    const projectId = param(req, "projectId");
    const request = req.body as components["schemas"]["DeployContractRequest"];
    await respond(req, res, deps, async (uow) => ({
      status: 200,
      body: await deployContract({ uow, db: deps.db.kysely, auth, projectId, request }),
    }));
  },
  async verifyContract(req, res, deps) {
    const auth = authOf(req);
    const projectId = param(req, "projectId");
    await respond(req, res, deps, async (uow) => ({
      status: 200,
      body: await verifyContract({ uow, db: deps.db.kysely, auth, projectId }),
    }));
  },
  async launchContract(req, res, deps) {
    const auth = authOf(req);
    const projectId = param(req, "projectId");
    await respond(req, res, deps, async (uow) => ({
      status: 200,
      body: await launchContract({ uow, db: deps.db.kysely, auth, projectId }),
    }));
  },
};
