// The data part's side of the card issuing simulator's storage port
// (server/providers/capabilities/simulated-card-issuer-store.ts, which declares it): the SimCardIssuerCall table. The
// shape matches the port structurally (this part may not import the providers' types); the callers that hand it to the
// card issuing capability check it.
//
// Both statements are precompiled, as the sandbox bank's books are (simulated-bank-store.ts): every sandbox card write
// runs the upsert, and Kysely would build and compile it on each call.
import type { Queryable } from "./kysely.ts";
import { precompiled } from "./precompiled-query.ts";

interface Call {
  operation: string;
  result: Record<string, unknown>;
}

// Inserted unless the reference stands; either way the standing row is returned (one statement).
const executeOnce = precompiled((db, p: { reference: string; operation: string; result: string }) =>
  db
    .insertInto("SimCardIssuerCall")
    .values({ idempotencyKey: p.reference, operation: p.operation, result: p.result })
    .onConflict((oc) => oc.column("idempotencyKey").doUpdateSet((eb) => ({ idempotencyKey: eb.ref("excluded.idempotencyKey") })))
    .returning(["operation", "result"]),
);

const findByReference = precompiled((db, p: { reference: string }) =>
  db.selectFrom("SimCardIssuerCall").select(["operation", "result"]).where("idempotencyKey", "=", p.reference),
);

const asCall = (row: { operation: string; result: unknown }): Call => ({
  operation: row.operation,
  result: row.result as Record<string, unknown>,
});

/** The books on `db` — the database itself, so each call is a statement of its own (an issuer's books outlive our
 * rollbacks). */
export function simulatedCardIssuerStore(db: Queryable) {
  return {
    async execute(reference: string, call: Call): Promise<Call> {
      const [row] = await executeOnce.execute(db, { reference, operation: call.operation, result: JSON.stringify(call.result) });
      if (!row) throw new Error(`the simulated card issuer's books returned no row for ${reference}`);
      return asCall(row);
    },
    async find(reference: string): Promise<Call | undefined> {
      const [row] = await findByReference.execute(db, { reference });
      return row && asCall(row);
    },
  };
}
