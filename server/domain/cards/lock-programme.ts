import type { Tx } from "../../db/kysely.ts";
import { guardCardWrite } from "./guard-card-write.ts";

/** Serializes postings that debit a programme's funding account (fund, just-in-time authorizations). Taken before the
 * card's lock. */
export async function lockProgramme(tx: Tx, programmeId: string): Promise<void> {
  await guardCardWrite("record", () => tx.selectFrom("CardProgramme").select("id").where("id", "=", programmeId).forUpdate().execute());
}
