import type { Tx } from "../../db/kysely.ts";
import { type Owner, ownedBy } from "../../db/owned-by.ts";
import { notFound } from "../../errors/service-error.ts";
import type { CardRow } from "./card-rows.ts";
import { guardCardWrite } from "./guard-card-write.ts";

/** Serializes writes to one card: takes the card row's lock (`SELECT … FOR UPDATE`, held until the transaction ends)
 * and reads the card as it is now. Every posting to a card's ledger accounts holds this lock, so balances read after it
 * cannot change underneath the write. Lock order across the card endpoints: programme first, then card. */
export async function lockCard(tx: Tx, auth: Owner, cardId: string): Promise<CardRow> {
  const card = await guardCardWrite("record", () =>
    tx.selectFrom("Card").selectAll().where("id", "=", cardId).where(ownedBy(auth)).forUpdate().executeTakeFirst(),
  );
  if (!card) throw notFound("Card");
  return card;
}
