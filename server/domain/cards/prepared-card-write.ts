import type { Tx } from "../../idempotency/idempotency-store.ts";

/** A card write whose checks outside the transaction passed (issuer resolved, records found, screening clear): the
 * handler runs `commit` in one transaction with the idempotency record, again on a transient conflict (up to
 * CARD_WRITE_RETRIES times), then answers `conflict`. */
export interface PreparedCardWrite<T> {
  status: 200 | 201;
  conflict: "CARD_LEDGER_CONFLICT" | "CARD_RECORD_CONFLICT";
  commit(tx: Tx): Promise<T>;
}
