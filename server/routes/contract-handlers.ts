// Contract lifecycle: templates, generate, read, and the stages compile → validate → simulate → deploy → verify → launch.
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
import { commitWrite } from "../http/commit-write.ts";
import { authOf, type HandlerTable, param } from "./handler.ts";

export const contractHandlers: HandlerTable = {
  listContractTemplates(_req, res) {
    res.json(listContractTemplates());
  },
  async generateContract(req, res, deps) {
    const work = generateContract({ auth: authOf(req), request: req.body as components["schemas"]["GenerateContractRequest"] });
    await commitWrite({ prisma: deps.db.prisma, idempotency: deps.idempotency }, req, res, 201, work);
  },
  async getContractProject(req, res, deps) {
    res.json(await getContractProject(deps.db.prisma, authOf(req), param(req, "projectId")));
  },
  async compileContract(req, res, deps) {
    const work = await compileContract({
      prisma: deps.db.prisma,
      auth: authOf(req),
      projectId: param(req, "projectId"),
      request: (req.body ?? {}) as components["schemas"]["CompileContractRequest"],
    });
    await commitWrite({ prisma: deps.db.prisma, idempotency: deps.idempotency }, req, res, 200, work);
  },
  async validateContract(req, res, deps) {
    const work = await validateContract({ prisma: deps.db.prisma, auth: authOf(req), projectId: param(req, "projectId") });
    await commitWrite({ prisma: deps.db.prisma, idempotency: deps.idempotency }, req, res, 200, work);
  },
  async simulateContract(req, res, deps) {
    const work = await simulateContract({ prisma: deps.db.prisma, auth: authOf(req), projectId: param(req, "projectId") });
    await commitWrite({ prisma: deps.db.prisma, idempotency: deps.idempotency }, req, res, 200, work);
  },
  async deployContract(req, res, deps) {
    await deployContract({
      prisma: deps.db.prisma,
      auth: authOf(req),
      projectId: param(req, "projectId"),
      request: req.body as components["schemas"]["DeployContractRequest"],
      commit: (work) => commitWrite({ prisma: deps.db.prisma, idempotency: deps.idempotency }, req, res, 200, work),
    });
  },
  async verifyContract(req, res, deps) {
    const work = await verifyContract({ prisma: deps.db.prisma, auth: authOf(req), projectId: param(req, "projectId") });
    await commitWrite({ prisma: deps.db.prisma, idempotency: deps.idempotency }, req, res, 200, work);
  },
  async launchContract(req, res, deps) {
    const work = await launchContract({ prisma: deps.db.prisma, auth: authOf(req), projectId: param(req, "projectId") });
    await commitWrite({ prisma: deps.db.prisma, idempotency: deps.idempotency }, req, res, 200, work);
  },
};
