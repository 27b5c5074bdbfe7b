// What the database was sent while a piece of work ran, from the request path's statement counter
// (server/db/statement-counter.ts): the tests of the statement budget, the lazy transaction and the direct statements
// compare these differences.
import type { StatementCounter } from "../../server/db/statement-counter.ts";

export type StatementsSent = ReturnType<StatementCounter["snapshot"]>;

/** Statements, BEGIN/COMMIT/ROLLBACK round trips and transactions sent while `work` ran. */
export async function statementsSentDuring(counter: StatementCounter, work: () => Promise<unknown>): Promise<StatementsSent> {
  const before = counter.snapshot();
  await work();
  const after = counter.snapshot();
  return {
    statements: after.statements - before.statements,
    transactionControl: after.transactionControl - before.transactionControl,
    transactions: after.transactions - before.transactions,
  };
}
