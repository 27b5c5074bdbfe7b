// The data part's side of the card issuing simulator's storage port
// (server/providers/capabilities/simulated-card-issuer-store.ts, which declares it): the SimCardIssuerCall table. The
// shape matches the port structurally (this part may not import the providers' types); the callers that hand it to the
// card issuing capability check it.
import type { Queryable } from "./kysely.ts";

interface Call {
  operation: string;
  result: Record<string, unknown>;
}

/** The books on `db` — the database itself, so each call is a statement of its own (an issuer's books outlive our
 * rollbacks). */
export function simulatedCardIssuerStore(db: Queryable) {
  return {
    async execute(reference: string, call: Call): Promise<Call> {
      // Inserted unless the reference stands; either way the standing row is returned (one statement).
      const row = await db
        .insertInto("SimCardIssuerCall")
        .values({ idempotencyKey: reference, operation: call.operation, result: JSON.stringify(call.result) })
        .onConflict((oc) => oc.column("idempotencyKey").doUpdateSet((eb) => ({ idempotencyKey: eb.ref("excluded.idempotencyKey") })))
        .returning(["operation", "result"])
        .executeTakeFirstOrThrow();
      return { operation: row.operation, result: row.result as Record<string, unknown> };
    },
    async find(reference: string): Promise<Call | undefined> {
      const row = await db
        .selectFrom("SimCardIssuerCall")
        .select(["operation", "result"])
        .where("idempotencyKey", "=", reference)
        .executeTakeFirst();
      return row && { operation: row.operation, result: row.result as Record<string, unknown> };
    },
  };
}
