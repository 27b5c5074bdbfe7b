// The data part's side of the bank transfer simulator's storage port (server/providers/capabilities/simulated-bank-store.ts,
// which declares it): the SimBankTransfer table. The shape matches the port structurally (this part may not import the
// providers' types); the callers that hand it to the bank-transfer capability check it.
import type { Queryable } from "./kysely.ts";

/** The books on `db` — the database itself, so each call is a statement of its own (a provider's books outlive our
 * rollbacks). */
export function simulatedBankStore(db: Queryable) {
  return {
    async execute(reference: string, execution: { providerTransferId: string }): Promise<{ providerTransferId: string }> {
      // Inserted unless the reference stands; either way the standing row is returned (one statement).
      const row = await db
        .insertInto("SimBankTransfer")
        .values({ idempotencyKey: reference, providerTransferId: execution.providerTransferId })
        .onConflict((oc) => oc.column("idempotencyKey").doUpdateSet((eb) => ({ idempotencyKey: eb.ref("excluded.idempotencyKey") })))
        .returning("providerTransferId")
        .executeTakeFirstOrThrow();
      return { providerTransferId: row.providerTransferId };
    },
    async find(reference: string): Promise<{ providerTransferId: string } | undefined> {
      return db.selectFrom("SimBankTransfer").select("providerTransferId").where("idempotencyKey", "=", reference).executeTakeFirst();
    },
  };
}
