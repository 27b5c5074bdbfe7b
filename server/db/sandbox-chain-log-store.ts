// The data part's side of the sandbox chain's storage port (server/chain/sandbox-chain-log.ts, which declares it): the
// SandboxChainTransaction table, read on the database itself or through a unit of work's transaction, appended to in
// that unit of work's closing statement, with the cross-process append lock. The shapes below match the port's
// interfaces structurally (this part may not import the chain's types); the callers that hand them to the chain check it.
import type { Insertable } from "kysely";
import type { DB, Queryable } from "./kysely.ts";
import type { UnitOfWork } from "./unit-of-work/index.ts";

/** pg_advisory_xact_lock key serializing appends to the log across processes. */
const CHAIN_LOCK_ID = 7_357_001;

const rowsAfter = (db: Queryable, seq: number) =>
  db.selectFrom("SandboxChainTransaction").select(["seq", "blockNumber", "hash", "rawTx"]).where("seq", ">", seq).orderBy("seq").execute();

interface LogOnDatabase {
  rowsAfter(seq: number): ReturnType<typeof rowsAfter>;
}

const logs = new WeakMap<Queryable, LogOnDatabase>();

/** The log on the database itself (deps.db.kysely, never a transaction): the rows committed so far. One object per
 * database, because the sandbox chain is cached by it: a new Database (e.g. after a restart) replays the log. */
export function sandboxChainLogOf(db: Queryable): LogOnDatabase {
  if (db.isTransaction) {
    throw new TypeError("The sandbox chain's log is named by the database, not a transaction (use sandboxChainLogIn(uow) for one)");
  }
  let log = logs.get(db);
  if (!log) {
    log = { rowsAfter: (seq) => rowsAfter(db, seq) };
    logs.set(db, log);
  }
  return log;
}

/** The log inside `uow`: read through its transaction, the append lock taken in it, rows appended at its commit. */
export function sandboxChainLogIn(uow: UnitOfWork) {
  return {
    now: uow.now,
    rowsAfter: (seq: number) => rowsAfter(uow.tx, seq),
    async lockAppends(): Promise<void> {
      await uow.tx.selectNoFrom((eb) => eb.fn("pg_advisory_xact_lock", [eb.lit(CHAIN_LOCK_ID)]).as("locked")).execute();
    },
    appendAtCommit(entries: Insertable<DB["SandboxChainTransaction"]>[]): void {
      uow.insertLater("SandboxChainTransaction", entries);
    },
  };
}
