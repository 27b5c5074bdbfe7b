import type { AuthContext } from "../../context.ts";
import type { Queryable, Tx } from "../../db/kysely.ts";
import { findOwned } from "../../db/owned-by.ts";
import { ServiceError } from "../../errors/service-error.ts";
import type { components } from "../../generated/openapi.ts";
import type { BankTransferRow } from "./bank-transfer-dto.ts";

type LookupRequest = components["schemas"]["BankTransferLookupRequest"];

/** The transfer of the key's organization and environment (404 otherwise), checked against the regime the caller names:
 * `senderJurisdiction` / `receiverJurisdiction` must be the transfer's (400 VALIDATION_ERROR). */
export async function findBankTransfer(db: Queryable, auth: AuthContext, request: LookupRequest): Promise<BankTransferRow> {
  const row = await findOwned(db, "BankTransfer", request.transferId, auth, "Bank transfer");
  const errors = [];
  if (row.senderJurisdiction !== request.senderJurisdiction) {
    errors.push({ path: "/body/senderJurisdiction", message: `must be the transfer's senderJurisdiction (${row.senderJurisdiction})` });
  }
  if (row.receiverJurisdiction !== request.receiverJurisdiction) {
    errors.push({
      path: "/body/receiverJurisdiction",
      message: `must be the transfer's receiverJurisdiction (${row.receiverJurisdiction})`,
    });
  }
  if (errors.length > 0) throw new ServiceError("VALIDATION_ERROR", errors.map((e) => `${e.path} ${e.message}`).join("; "), { errors });
  return row;
}

/** Locks the transfer row for the rest of the transaction and returns its current state. */
export async function lockBankTransfer(tx: Tx, id: string): Promise<BankTransferRow> {
  return tx.selectFrom("BankTransfer").selectAll().where("id", "=", id).forUpdate().executeTakeFirstOrThrow();
}
