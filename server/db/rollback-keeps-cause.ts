// A rollback that fails (the connection died, the server went away) must not replace the error that caused it: Kysely
// rethrows the rollback's error in place of the original, which turned "connection cut while reserving the key"
// (IDEMPOTENCY_UNAVAILABLE) into a generic failure. The transaction is gone either way: PostgreSQL rolls back a
// transaction whose connection closed, and the broken connection is not reused by the pool.
import type { DatabaseConnection, Dialect, Driver } from "kysely";

class RollbackKeepsCauseDriver implements Driver {
  private readonly inner: Driver;

  constructor(inner: Driver) {
    this.inner = inner;
  }
  init() {
    return this.inner.init();
  }
  acquireConnection() {
    return this.inner.acquireConnection();
  }
  beginTransaction(connection: DatabaseConnection, settings: Parameters<Driver["beginTransaction"]>[1]) {
    return this.inner.beginTransaction(connection, settings);
  }
  commitTransaction(connection: DatabaseConnection) {
    return this.inner.commitTransaction(connection);
  }
  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await this.inner.rollbackTransaction(connection).catch(() => {});
  }
  releaseConnection(connection: DatabaseConnection) {
    return this.inner.releaseConnection(connection);
  }
  destroy() {
    return this.inner.destroy();
  }
}

export function rollbackKeepsCause(dialect: Dialect): Dialect {
  return {
    createAdapter: () => dialect.createAdapter(),
    createDriver: () => new RollbackKeepsCauseDriver(dialect.createDriver()),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createIntrospector: (db) => dialect.createIntrospector(db),
  };
}
