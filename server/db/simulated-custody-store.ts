// The data part's side of the custody simulator's storage port (server/providers/capabilities/simulated-custody-store.ts,
// which declares it): the SimCustodyWallet and SimCustodyTransfer tables. The shapes below match the port's interfaces
// structurally (this part may not import the providers' types); the callers that hand them to a custody provider check it.
import { type Insertable, sql } from "kysely";
import { inTransaction } from "./direct-statements.ts";
import type { DB, Queryable } from "./kysely.ts";

/** The books' statements, on the database itself or on a transaction. */
class SimulatedCustodyBooksOn {
  private readonly db: Queryable;

  constructor(db: Queryable) {
    this.db = db;
  }

  vaultByKey(idempotencyKey: string) {
    return this.db.selectFrom("SimCustodyWallet").select(["id", "address"]).where("idempotencyKey", "=", idempotencyKey).executeTakeFirst();
  }

  openVault(vault: Insertable<DB["SimCustodyWallet"]>) {
    return this.db
      .insertInto("SimCustodyWallet")
      .values(vault)
      .onConflict((oc) => oc.column("idempotencyKey").doNothing())
      .returning(["id", "address"])
      .executeTakeFirst();
  }

  completedTotalsOfVault(vaultId: string) {
    return this.db
      .selectFrom("SimCustodyWallet as w")
      .leftJoin("SimCustodyTransfer as t", (join) =>
        join.onRef("t.providerWalletId", "=", "w.id").on("t.state", "=", "completed").on("t.outcome", "is", null),
      )
      .select(["w.chain", "t.asset", (eb) => eb.cast<string | null>(eb.fn.sum("t.amountMinor"), "text").as("completed")])
      .where("w.id", "=", vaultId)
      .groupBy(["w.chain", "t.asset"])
      .execute();
  }

  lockVault(vaultId: string) {
    return this.db.selectFrom("SimCustodyWallet").select(["id", "chain", "type"]).where("id", "=", vaultId).forUpdate().executeTakeFirst();
  }

  async chainOfVault(vaultId: string) {
    return (await this.db.selectFrom("SimCustodyWallet").select("chain").where("id", "=", vaultId).executeTakeFirst())?.chain;
  }

  async transferIdByKey(idempotencyKey: string) {
    return (await this.db.selectFrom("SimCustodyTransfer").select("id").where("idempotencyKey", "=", idempotencyKey).executeTakeFirst())
      ?.id;
  }

  transferTotalsByState(vaultId: string, asset: string) {
    return this.db
      .selectFrom("SimCustodyTransfer")
      .select(["state", (eb) => eb.cast<string | null>(eb.fn.sum("amountMinor"), "text").as("total")])
      .where("providerWalletId", "=", vaultId)
      .where("asset", "=", asset)
      .where("outcome", "is", null)
      .groupBy("state")
      .execute();
  }

  async recordTransfer(transfer: Insertable<DB["SimCustodyTransfer"]>): Promise<void> {
    await this.db
      .insertInto("SimCustodyTransfer")
      .values(transfer)
      .onConflict((oc) => oc.doNothing())
      .execute();
  }

  lockTransfer(transferId: string) {
    return this.db.selectFrom("SimCustodyTransfer").selectAll().where("id", "=", transferId).forUpdate().executeTakeFirst();
  }

  async updateTransfer(transferId: string, changes: { state: string; pendingReads: number; txHash: string | null }): Promise<void> {
    await this.db.updateTable("SimCustodyTransfer").set(changes).where("id", "=", transferId).execute();
  }
}

type Books = SimulatedCustodyBooksOn;

/**
 * The books on `db`: the database itself (how the custody endpoints call the provider, with no transaction of theirs
 * open), or the caller's open transaction (the corridor dispatcher, which keeps the simulator's effects in its own unit).
 */
export function simulatedCustodyStore(db: Queryable) {
  return {
    async run<T>(work: (books: Books) => Promise<T>, options: { atomic?: boolean } = {}): Promise<T> {
      if (!db.isTransaction) {
        return options.atomic ? inTransaction(db, (tx) => work(new SimulatedCustodyBooksOn(tx))) : work(new SimulatedCustodyBooksOn(db));
      }
      // Kysely's builder has savepoints only on transactions it opened as controlled ones, not on a Transaction handed
      // over by a caller: these three statements are SQL fragments for that reason.
      await sql`SAVEPOINT sim_custody_books`.execute(db);
      try {
        const result = await work(new SimulatedCustodyBooksOn(db));
        await sql`RELEASE SAVEPOINT sim_custody_books`.execute(db);
        return result;
      } catch (error) {
        await sql`ROLLBACK TO SAVEPOINT sim_custody_books`.execute(db);
        throw error;
      }
    },
  };
}
