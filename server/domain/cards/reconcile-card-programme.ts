// The reconciler's handler for a card programme's creation (server/domain/reconcile/): the card issuer is asked by the
// programme id (the creation call's idempotency key) whether it created the programme. In one unit of work, with the
// programme locked and still `pending`:
//   - executed: `active` with the issuer's reference, the activity and the event `card_programme.created` — each once,
//     as the request would have written them;
//   - not executed, or after the last attempt the issuer still unable to answer: `failed`, its opening sandbox test
//     funds written back (a reversing posting under the programme's journal id: no card can have drawn on them, none is
//     issued under a programme that is not `active`); no event. Its name stays taken.
// The key's final answer is 201 with the programme as it now stands (`active` or `failed`).
import { ownedBy } from "../../db/owned-by.ts";
import type { ClaimedIntent } from "../../db/provider-intents.ts";
import type { UnitOfWork } from "../../db/unit-of-work/index.ts";
import type { CardIssuerLookup } from "../../providers/capabilities/card-issuing.ts";
import type { OperationOutcome } from "../../spec/operation-types.ts";
import { recordActivity } from "../activity/record-activity.ts";
import { type IntentHandler, scopeOf } from "../reconcile/intent-handler.ts";
import { programmeFundingAccount, SANDBOX_TEST_FUNDS_ACCOUNT } from "./card-accounts.ts";
import { emitCardEvent } from "./card-events.ts";
import { toCardProgrammeDto } from "./card-programme-dto.ts";
import { CARD_PROGRAMME_CREATE, notExecuted, unconfirmed } from "./card-write-intents.ts";
import { lookUpCardWrite } from "./look-up-card-write.ts";
import { postLedgerJournal } from "./post-ledger-journal.ts";
import { readAccountBalances } from "./read-account-balances.ts";

type Found = CardIssuerLookup | { gone: true };

export const cardProgrammeCreateHandler: IntentHandler<Found> = {
  family: CARD_PROGRAMME_CREATE,
  async lookup(db, intent) {
    return (await lookUpCardWrite(db, intent, intent.resourceId)) ?? { gone: true };
  },
  settle: (uow, intent, found) =>
    "gone" in found
      ? Promise.resolve(undefined)
      : settleProgramme(
          uow,
          intent,
          found.executed ? { reference: String(found.result.reference) } : { failure: notExecuted("programme") },
        ),
  giveUp: (uow, intent, lastError) => settleProgramme(uow, intent, { failure: unconfirmed("programme", intent.attempts, lastError) }),
};

/** Activates the programme with the issuer's `reference`, or fails it with its `failure` (for an operator: the
 * programme's `failureReason`), if it is still `pending`; returns the key's answer. */
async function settleProgramme(
  uow: UnitOfWork,
  intent: ClaimedIntent,
  outcome: { reference: string } | { failure: string },
): Promise<OperationOutcome<"createCardProgramme"> | undefined> {
  const scope = scopeOf(intent);
  let programme = await uow.tx
    .selectFrom("CardProgramme")
    .selectAll()
    .where(ownedBy(scope))
    .where("id", "=", intent.resourceId)
    .forUpdate()
    .executeTakeFirst();
  if (!programme) return undefined;
  // Settled meanwhile (it cannot be while this run holds the intent, but a row is never moved twice): answered as it is.
  if (programme.status !== "pending") return { status: 201, body: toCardProgrammeDto(programme) };
  const moved =
    "reference" in outcome
      ? { status: "active", providerReference: outcome.reference }
      : { status: "failed", failureReason: outcome.failure };
  programme = await uow.tx
    .updateTable("CardProgramme")
    .set((eb) => ({ ...moved, version: eb("version", "+", 1), updatedAt: uow.now }))
    .where(ownedBy(scope))
    .where("id", "=", programme.id)
    .returningAll()
    .executeTakeFirstOrThrow();
  const body = toCardProgrammeDto(programme);
  if ("reference" in outcome) {
    recordActivity(uow, { ...scope, type: "card_programme.created", resourceId: programme.id });
    emitCardEvent(uow, scope, "card_programme.created", programme.id, body);
  } else {
    const funding = programmeFundingAccount(programme.id);
    const held = (await readAccountBalances(uow.tx, scope, [funding])).get(funding) ?? 0n;
    if (held > 0n) {
      await postLedgerJournal(uow, scope, {
        journalId: programme.id,
        kind: "sandbox_test_funds_reversal",
        programmeId: programme.id,
        cardId: null,
        asset: programme.fundingAsset,
        transfers: [{ from: funding, to: SANDBOX_TEST_FUNDS_ACCOUNT, amountMinor: held }],
      });
    }
  }
  return { status: 201, body };
}
