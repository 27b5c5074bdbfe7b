// Cards (v2, Sandbox only: simulated). Thin: read the request, call one domain function, respond. Every write is the
// request's unit of work (two transactions around the card issuer's call: see afterCardIssuerCall), run again on a
// transient database conflict (retryCardWrite).
import type { Request, Response } from "express";
import type { PendingProviderStep, UnitOfWork } from "../db/unit-of-work.ts";
import type { CardStatusAction } from "../domain/cards/card-transitions.ts";
import { changeCardStatus } from "../domain/cards/change-card-status.ts";
import { createCardProgramme } from "../domain/cards/create-card-programme.ts";
import { fundCard } from "../domain/cards/fund-card.ts";
import { getCard } from "../domain/cards/get-card.ts";
import { issueCard } from "../domain/cards/issue-card.ts";
import { listCardTransactions } from "../domain/cards/list-card-transactions.ts";
import { type CardConflictCode, failTransientConflicts, retryCardWrite } from "../domain/cards/retry-card-write.ts";
import { settleAuthorization } from "../domain/cards/settle-authorization.ts";
import { simulateAuthorization } from "../domain/cards/simulate-authorization.ts";
import { updateCardLimits } from "../domain/cards/update-card-limits.ts";
import type { components } from "../generated/openapi.ts";
import { respondWithUnitOfWork } from "../http/respond-with-unit-of-work.ts";
import type { CardIssuerFailure } from "../providers/card-issuer.ts";
import { authOf, type Handler, type HandlerDeps, type HandlerTable, intQuery, param } from "./handler.ts";

type Schemas = components["schemas"];

/** The sandbox `Sandbox-Simulate-Error` header (its values were validated against the spec). */
const simulateOf = (req: Request) => req.get("sandbox-simulate-error") as CardIssuerFailure | undefined;

const common = (req: Request) => ({ auth: authOf(req), simulate: simulateOf(req), requestId: req.ctx.requestId });

/** A card write: the unit of work first (a replay answers before any work), again on a transient conflict. */
function respondWithCardWrite(
  req: Request,
  res: Response,
  deps: HandlerDeps,
  conflict: CardConflictCode,
  work: (uow: UnitOfWork) => Promise<PendingProviderStep>,
): Promise<void> {
  return retryCardWrite((lastAttempt) =>
    respondWithUnitOfWork(req, res, deps, (uow) => failTransientConflicts(conflict, lastAttempt, () => work(uow))),
  );
}

const changeStatus =
  (action: CardStatusAction): Handler =>
  async (req, res, deps) => {
    const { reason } = req.body as Schemas["CardStateChangeRequest"];
    await respondWithCardWrite(req, res, deps, "CARD_RECORD_CONFLICT", (uow) =>
      changeCardStatus({ uow, ...common(req), cardId: param(req, "cardId"), action, reason }),
    );
  };

const settle =
  (action: "capture" | "reverse"): Handler =>
  async (req, res, deps) => {
    const { amount } = req.body as Schemas["CaptureAuthorizationRequest"] | Schemas["ReverseAuthorizationRequest"];
    await respondWithCardWrite(req, res, deps, "CARD_LEDGER_CONFLICT", (uow) =>
      settleAuthorization({
        uow,
        ...common(req),
        cardId: param(req, "cardId"),
        authorizationId: param(req, "authorizationId"),
        action,
        amount,
      }),
    );
  };

export const cardHandlers: HandlerTable = {
  async createCardProgramme(req, res, deps) {
    const request = req.body as Schemas["CreateCardProgrammeRequest"];
    await respondWithCardWrite(req, res, deps, "CARD_RECORD_CONFLICT", (uow) => createCardProgramme({ uow, ...common(req), request }));
  },
  async issueCard(req, res, deps) {
    const request = req.body as Schemas["IssueCardRequest"];
    await respondWithCardWrite(req, res, deps, "CARD_RECORD_CONFLICT", (uow) => issueCard({ uow, ...common(req), request }));
  },
  async getCard(req, res, deps) {
    res.json(await getCard({ db: deps.db.kysely, ...common(req), cardId: param(req, "cardId") }));
  },
  async listCardTransactions(req, res, deps) {
    const startingAfter = (req.query as { startingAfter?: string }).startingAfter;
    res.json(
      await listCardTransactions({
        db: deps.db.kysely,
        ...common(req),
        cardId: param(req, "cardId"),
        limit: intQuery(req, "limit", 10),
        startingAfter,
      }),
    );
  },
  async fundCard(req, res, deps) {
    const request = req.body as Schemas["FundCardRequest"];
    await respondWithCardWrite(req, res, deps, "CARD_LEDGER_CONFLICT", (uow) =>
      fundCard({ uow, ...common(req), cardId: param(req, "cardId"), request }),
    );
  },
  freezeCard: changeStatus("freeze"),
  unfreezeCard: changeStatus("unfreeze"),
  deactivateCard: changeStatus("deactivate"),
  async updateCardLimits(req, res, deps) {
    const { limits } = req.body as Schemas["UpdateCardLimitsRequest"];
    await respondWithCardWrite(req, res, deps, "CARD_RECORD_CONFLICT", (uow) =>
      updateCardLimits({ uow, ...common(req), cardId: param(req, "cardId"), limits }),
    );
  },
  async simulateCardAuthorization(req, res, deps) {
    const request = req.body as Schemas["SimulateAuthorizationRequest"];
    await respondWithCardWrite(req, res, deps, "CARD_LEDGER_CONFLICT", (uow) =>
      simulateAuthorization({ uow, ...common(req), cardId: param(req, "cardId"), request }),
    );
  },
  captureCardAuthorization: settle("capture"),
  reverseCardAuthorization: settle("reverse"),
};
