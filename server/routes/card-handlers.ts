// Cards (v2, Sandbox only: simulated). Thin: read the request, call one domain function, answer. Every write is the
// request's unit of work (two transactions around the card issuer's call: see afterCardIssuerCall), run again on a
// transient database conflict (retryCardWrite). The reconcilable writes (issue 26) hand the card issuing simulator its
// books (its storage port) on the database itself, never inside the request's transaction.
import type { AuthContext } from "../context.ts";
import { simulatedCardIssuerStore } from "../db/simulated-card-issuer-store.ts";
import { changeCardStatus } from "../domain/cards/change-card-status.ts";
import { createCardProgramme } from "../domain/cards/create-card-programme.ts";
import { fundCard } from "../domain/cards/fund-card.ts";
import { getCard } from "../domain/cards/get-card.ts";
import { issueCard } from "../domain/cards/issue-card.ts";
import { listCardProgrammes } from "../domain/cards/list-card-programmes.ts";
import { listCardTransactions } from "../domain/cards/list-card-transactions.ts";
import { listCards } from "../domain/cards/list-cards.ts";
import { type CardConflictCode, failTransientConflicts, retryCardWrite } from "../domain/cards/retry-card-write.ts";
import { settleAuthorization } from "../domain/cards/settle-authorization.ts";
import { simulateAuthorization } from "../domain/cards/simulate-authorization.ts";
import { updateCardLimits } from "../domain/cards/update-card-limits.ts";
import { pageWindow } from "../domain/lists/page-window.ts";
import type { CardIssuerFailure } from "../domain/providers/provider-failures.ts";
import { issueCardRequest } from "../http/request-shapes/issue-card-request.ts";
import { chargeSpending } from "./charge-spending.ts";
import { type Answered, type OperationId, type RouteContext, type Routes, route, type Work } from "./route.ts";

/** What every card operation passes on: the caller, the sandbox `Sandbox-Simulate-Error` header (validated against the
 * spec), and the request id. */
const common = (context: CardCaller) => ({
  auth: context.auth,
  simulate: context.header("Sandbox-Simulate-Error"),
  requestId: context.requestId,
});

interface CardCaller {
  auth: AuthContext;
  requestId: string;
  header(name: "Sandbox-Simulate-Error"): CardIssuerFailure | undefined;
}

/** A card write: the unit of work first (a replay answers before any work), again on a transient conflict. */
function cardWrite<K extends OperationId>(
  respond: RouteContext<K>["respond"],
  conflict: CardConflictCode,
  work: Work<K>,
): Promise<Answered> {
  return retryCardWrite((lastAttempt) => respond((uow) => failTransientConflicts(conflict, lastAttempt, () => work(uow))));
}

export const cardRoutes: Routes = [
  route("createCardProgramme", (context) =>
    cardWrite(context.respond, "CARD_RECORD_CONFLICT", (uow) =>
      createCardProgramme(uow, { ...common(context), request: context.body, books: simulatedCardIssuerStore(context.deps.db.kysely) }),
    ),
  ),
  route("listCardProgrammes", async ({ query, auth, deps }) => ({
    status: 200,
    body: await listCardProgrammes(deps.db.kysely, { auth, window: pageWindow(query) }),
  })),
  route("listCards", async ({ query, auth, deps }) => ({
    status: 200,
    body: await listCards(deps.db.kysely, { auth, window: pageWindow(query), status: query.status, programmeId: query.programmeId }),
  })),
  route("issueCard", (context) =>
    cardWrite(context.respond, "CARD_RECORD_CONFLICT", (uow) =>
      issueCard(uow, {
        ...common(context),
        request: issueCardRequest(context.body),
        books: simulatedCardIssuerStore(context.deps.db.kysely),
      }),
    ),
  ),
  route("getCard", async (context) => ({
    status: 200,
    body: await getCard(context.deps.db.kysely, { ...common(context), cardId: context.path.cardId }),
  })),
  route("listCardTransactions", async (context) => ({
    status: 200,
    body: await listCardTransactions(context.deps.db.kysely, {
      ...common(context),
      cardId: context.path.cardId,
      limit: context.query.limit ?? 10,
      startingAfter: context.query.startingAfter,
    }),
  })),
  route("fundCard", (context) =>
    cardWrite(context.respond, "CARD_LEDGER_CONFLICT", async (uow) => {
      await chargeSpending(context, uow, { asset: context.body.asset, amount: context.body.amount });
      return fundCard(uow, {
        ...common(context),
        cardId: context.path.cardId,
        request: context.body,
        books: simulatedCardIssuerStore(context.deps.db.kysely),
      });
    }),
  ),
  route("freezeCard", (c) =>
    cardWrite(c.respond, "CARD_RECORD_CONFLICT", (uow) =>
      changeCardStatus(uow, {
        ...common(c),
        cardId: c.path.cardId,
        action: "freeze",
        reason: c.body.reason,
        books: simulatedCardIssuerStore(c.deps.db.kysely),
      }),
    ),
  ),
  route("unfreezeCard", (c) =>
    cardWrite(c.respond, "CARD_RECORD_CONFLICT", (uow) =>
      changeCardStatus(uow, {
        ...common(c),
        cardId: c.path.cardId,
        action: "unfreeze",
        reason: c.body.reason,
        books: simulatedCardIssuerStore(c.deps.db.kysely),
      }),
    ),
  ),
  route("deactivateCard", (c) =>
    cardWrite(c.respond, "CARD_RECORD_CONFLICT", (uow) =>
      changeCardStatus(uow, {
        ...common(c),
        cardId: c.path.cardId,
        action: "deactivate",
        reason: c.body.reason,
        books: simulatedCardIssuerStore(c.deps.db.kysely),
      }),
    ),
  ),
  route("updateCardLimits", (context) =>
    cardWrite(context.respond, "CARD_RECORD_CONFLICT", (uow) =>
      updateCardLimits(uow, {
        ...common(context),
        cardId: context.path.cardId,
        limits: context.body.limits,
        books: simulatedCardIssuerStore(context.deps.db.kysely),
      }),
    ),
  ),
  route("simulateCardAuthorization", (context) =>
    cardWrite(context.respond, "CARD_LEDGER_CONFLICT", (uow) =>
      simulateAuthorization(uow, { ...common(context), cardId: context.path.cardId, request: context.body }),
    ),
  ),
  route("captureCardAuthorization", (c) =>
    cardWrite(c.respond, "CARD_LEDGER_CONFLICT", (uow) =>
      settleAuthorization(uow, { ...common(c), ...c.path, action: "capture", amount: c.body.amount }),
    ),
  ),
  route("reverseCardAuthorization", (c) =>
    cardWrite(c.respond, "CARD_LEDGER_CONFLICT", (uow) =>
      settleAuthorization(uow, { ...common(c), ...c.path, action: "reverse", amount: c.body.amount }),
    ),
  ),
];
