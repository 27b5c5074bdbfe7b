// A card's status or limits change whose card issuer answer is unconfirmed (issue 26): the column `Card.pendingUpdate`.
// The request writes it with the change, in its first transaction — the requested values go on the card, what they
// replaced goes here — so whoever settles the change (the request's second transaction, or the reconciler after a lost
// answer or a crash) can put the card back if the issuer never applied it. Confirmed or put back, it returns to null.
// While it is set the card takes no other status or limits change (one unconfirmed change at a time: a second one would
// overwrite what the first must be put back to).
import { sql } from "kysely";
import type { Queryable } from "../../db/kysely.ts";
import { type Owner, ownedBy } from "../../db/owned-by.ts";
import { ServiceError } from "../../errors/service-error.ts";
import type { components } from "../../generated/openapi.ts";
import type { CardStatusAction } from "./card-transitions.ts";

interface Common {
  /** The issuer call's idempotency key: the intent's reference, which the reconciler asks the issuer about. */
  reference: string;
  requestedAt: string;
}

export type CardPendingUpdate =
  | (Common & { type: "status"; action: CardStatusAction; previous: { status: string; statusReason: string | null } })
  | (Common & { type: "limits"; previous: { limits: unknown } });

/** The column as read (jsonb, parsed), or null. */
export function readPendingUpdate(stored: unknown): CardPendingUpdate | null {
  if (stored === null || stored === undefined) return null;
  return (typeof stored === "string" ? JSON.parse(stored) : stored) as CardPendingUpdate;
}

/** The column's value for a write (jsonb from its text, as the card's `limits` are written). */
export const storePendingUpdate = (update: CardPendingUpdate): string => JSON.stringify(update);

/** What the API shows of it (`Card.pendingUpdate`): what kind of change and since when. */
export function toPendingUpdateDto(stored: unknown): components["schemas"]["CardPendingUpdate"] | null {
  const update = readPendingUpdate(stored);
  return update ? { type: update.type, requestedAt: update.requestedAt } : null;
}

/** A second status or limits change while one is unconfirmed. */
export const changePending = () =>
  new ServiceError(
    "CARD_RECORD_CONFLICT",
    "A previous status or limits change of this card awaits the card issuer's confirmation (see pendingUpdate); retry once it is settled",
  );

/** The change sent with `reference` is settled and stands: the card keeps its values, with nothing pending (a card whose
 * pending change is another one is left alone). */
export function clearPendingUpdate(db: Queryable, scope: Owner, cardId: string, reference: string) {
  return db
    .updateTable("Card")
    .set({ pendingUpdate: null })
    .where(ownedBy(scope))
    .where("id", "=", cardId)
    .where(sql<boolean>`"pendingUpdate"->>'reference' = ${reference}`);
}
