// Cards (v2, Sandbox only: simulated). Thin: read the request, call one domain function, respond. Writes run the
// prepared commit in one transaction with the idempotency record, again on a transient database conflict.
import type { Request, Response } from "express";
import { changeCardStatus } from "../domain/cards/change-card-status.ts";
import { createCardProgramme } from "../domain/cards/create-card-programme.ts";
import { fundCard } from "../domain/cards/fund-card.ts";
import { getCard } from "../domain/cards/get-card.ts";
import { issueCard } from "../domain/cards/issue-card.ts";
import { listCardTransactions } from "../domain/cards/list-card-transactions.ts";
import type { PreparedCardWrite } from "../domain/cards/prepared-card-write.ts";
import { retryCardWrite } from "../domain/cards/retry-card-write.ts";
import { settleAuthorization } from "../domain/cards/settle-authorization.ts";
import { simulateAuthorization } from "../domain/cards/simulate-authorization.ts";
import { updateCardLimits } from "../domain/cards/update-card-limits.ts";
import type { components } from "../generated/openapi.ts";
import { commitWrite } from "../http/commit-write.ts";
import type { CardIssuerFailure } from "../providers/card-issuer.ts";
import { authOf, type HandlerDeps, type HandlerTable, intQuery, param } from "./handler.ts";

type Schemas = components["schemas"];

/** The sandbox `Sandbox-Simulate-Error` header (its values were validated against the spec). */
const simulateOf = (req: Request) => req.get("sandbox-simulate-error") as CardIssuerFailure | undefined;

async function commitCardWrite<T>(req: Request, res: Response, deps: HandlerDeps, prepared: PreparedCardWrite<T>): Promise<void> {
  const writeDeps = { prisma: deps.db.prisma, idempotency: deps.idempotency };
  await retryCardWrite(prepared.conflict, () => commitWrite(writeDeps, req, res, prepared.status, prepared.commit));
}

const common = (req: Request, deps: HandlerDeps) => ({
  prisma: deps.db.prisma,
  auth: authOf(req),
  simulate: simulateOf(req),
  requestId: req.ctx.requestId,
});

export const cardHandlers: HandlerTable = {
  async createCardProgramme(req, res, deps) {
    const prepared = await createCardProgramme({ ...common(req, deps), request: req.body as Schemas["CreateCardProgrammeRequest"] });
    await commitCardWrite(req, res, deps, prepared);
  },
  async issueCard(req, res, deps) {
    const prepared = await issueCard({ ...common(req, deps), request: req.body as Schemas["IssueCardRequest"] });
    await commitCardWrite(req, res, deps, prepared);
  },
  async getCard(req, res, deps) {
    res.json(await getCard({ ...common(req, deps), cardId: param(req, "cardId") }));
  },
  async listCardTransactions(req, res, deps) {
    const startingAfter = (req.query as { startingAfter?: string }).startingAfter;
    res.json(
      await listCardTransactions({ ...common(req, deps), cardId: param(req, "cardId"), limit: intQuery(req, "limit", 10), startingAfter }),
    );
  },
  async fundCard(req, res, deps) {
    const prepared = await fundCard({
      ...common(req, deps),
      cardId: param(req, "cardId"),
      request: req.body as Schemas["FundCardRequest"],
    });
    await commitCardWrite(req, res, deps, prepared);
  },
  async freezeCard(req, res, deps) {
    const { reason } = req.body as Schemas["CardStateChangeRequest"];
    await commitCardWrite(
      req,
      res,
      deps,
      await changeCardStatus({ ...common(req, deps), cardId: param(req, "cardId"), action: "freeze", reason }),
    );
  },
  async unfreezeCard(req, res, deps) {
    const { reason } = req.body as Schemas["CardStateChangeRequest"];
    await commitCardWrite(
      req,
      res,
      deps,
      await changeCardStatus({ ...common(req, deps), cardId: param(req, "cardId"), action: "unfreeze", reason }),
    );
  },
  async deactivateCard(req, res, deps) {
    const { reason } = req.body as Schemas["CardStateChangeRequest"];
    await commitCardWrite(
      req,
      res,
      deps,
      await changeCardStatus({ ...common(req, deps), cardId: param(req, "cardId"), action: "deactivate", reason }),
    );
  },
  async updateCardLimits(req, res, deps) {
    const { limits } = req.body as Schemas["UpdateCardLimitsRequest"];
    await commitCardWrite(req, res, deps, await updateCardLimits({ ...common(req, deps), cardId: param(req, "cardId"), limits }));
  },
  async simulateCardAuthorization(req, res, deps) {
    const request = req.body as Schemas["SimulateAuthorizationRequest"];
    await commitCardWrite(req, res, deps, await simulateAuthorization({ ...common(req, deps), cardId: param(req, "cardId"), request }));
  },
  async captureCardAuthorization(req, res, deps) {
    const { amount } = req.body as Schemas["CaptureAuthorizationRequest"];
    const prepared = await settleAuthorization({
      ...common(req, deps),
      cardId: param(req, "cardId"),
      authorizationId: param(req, "authorizationId"),
      action: "capture",
      amount,
    });
    await commitCardWrite(req, res, deps, prepared);
  },
  async reverseCardAuthorization(req, res, deps) {
    const { amount } = req.body as Schemas["ReverseAuthorizationRequest"];
    const prepared = await settleAuthorization({
      ...common(req, deps),
      cardId: param(req, "cardId"),
      authorizationId: param(req, "authorizationId"),
      action: "reverse",
      amount,
    });
    await commitCardWrite(req, res, deps, prepared);
  },
};
