// The data part's side of the bank transfer simulator's storage port (server/providers/capabilities/simulated-bank-store.ts,
// which declares it): the SimBankTransfer table. The shape matches the port structurally (this part may not import the
// providers' types); the callers that hand it to the bank-transfer capability check it.
//
// Both statements are precompiled (precompiled-query.ts): every sandbox bank transfer runs the upsert, and building it
// with Kysely per call was a measurable part of the write's CPU (docs/performance.md, "A provider's books").
import type { Queryable } from "./kysely.ts";
import { precompiled } from "./precompiled-query.ts";

// Inserted unless the reference stands; either way the standing row is returned (one statement).
const executeOnce = precompiled((db, p: { reference: string; providerTransferId: string }) =>
  db
    .insertInto("SimBankTransfer")
    .values({ idempotencyKey: p.reference, providerTransferId: p.providerTransferId })
    .onConflict((oc) => oc.column("idempotencyKey").doUpdateSet((eb) => ({ idempotencyKey: eb.ref("excluded.idempotencyKey") })))
    .returning("providerTransferId"),
);

const findByReference = precompiled((db, p: { reference: string }) =>
  db.selectFrom("SimBankTransfer").select("providerTransferId").where("idempotencyKey", "=", p.reference),
);

/** The books on `db` — the database itself, so each call is a statement of its own (a provider's books outlive our
 * rollbacks). */
export function simulatedBankStore(db: Queryable) {
  return {
    async execute(reference: string, execution: { providerTransferId: string }): Promise<{ providerTransferId: string }> {
      const [row] = await executeOnce.execute(db, { reference, providerTransferId: execution.providerTransferId });
      if (!row) throw new Error(`the simulated bank's books returned no row for ${reference}`);
      return { providerTransferId: row.providerTransferId };
    },
    async find(reference: string): Promise<{ providerTransferId: string } | undefined> {
      const [row] = await findByReference.execute(db, { reference });
      return row;
    },
  };
}
