import type { Tx } from "../../idempotency/idempotency-store.ts";

/** A write checked and ready: `commit` runs inside the request's one transaction (see server/http/commit-write.ts). */
export interface PreparedWrite<T> {
  status: number;
  commit(tx: Tx): Promise<T>;
}
