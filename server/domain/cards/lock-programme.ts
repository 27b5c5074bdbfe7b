import type { Tx } from "../../idempotency/idempotency-store.ts";
import { guardCardWrite } from "./guard-card-write.ts";

/** Serializes postings that debit a programme's funding account (fund, just-in-time authorizations). Taken before the
 * card's lock. */
export async function lockProgramme(tx: Tx, programmeId: string): Promise<void> {
  await guardCardWrite("record", () => tx.$queryRaw`SELECT "id" FROM "CardProgramme" WHERE "id" = ${programmeId} FOR UPDATE`);
}
