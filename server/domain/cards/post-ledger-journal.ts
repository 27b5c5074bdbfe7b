import type { Tx } from "../../db/kysely.ts";
import type { Owner } from "../../db/owned-by.ts";
import type { UnitOfWork } from "../../db/unit-of-work/index.ts";
import { newId } from "../../lib/ids.ts";
import { type CardWriteTarget, guardCardWrite } from "./guard-card-write.ts";

export interface LedgerTransfer {
  /** The account debited. */
  from: string;
  /** The account credited. */
  to: string;
  amountMinor: bigint;
}

export interface LedgerJournal {
  /** The posting's id: the CardTransaction it belongs to, or the programme for its sandbox test funds. */
  journalId: string;
  /** `funding_reversal` / `sandbox_test_funds_reversal`: a funding, or a programme's opening test funds, whose issuer
   * call never executed (or could not be confirmed), written back by the reconciler (reconcile-card-funding.ts,
   * reconcile-card-programme.ts) under the same journal id. */
  kind:
    | "funding"
    | "funding_reversal"
    | "sandbox_test_funds"
    | "sandbox_test_funds_reversal"
    | "authorization_hold"
    | "capture"
    | "release";
  programmeId: string;
  cardId: string | null;
  asset: string;
  transfers: LedgerTransfer[];
  /** What a failed write answers: `ledger` (default) → CARD_LEDGER_WRITE_FAILED, `record` → CARD_RECORD_WRITE_FAILED. */
  failAs?: CardWriteTarget;
}

/** Appends one balanced posting: a debit entry and a credit entry of the same amount per transfer. Returns the entry
 * ids as [debit, credit] per transfer. A failure is 500 CARD_LEDGER_WRITE_FAILED (or `failAs`); the caller's transaction
 * then rolls back. */
export async function postLedgerJournal(uow: UnitOfWork, auth: Owner, journal: LedgerJournal): Promise<Array<[string, string]>> {
  const ids: Array<[string, string]> = [];
  const rows = journal.transfers.flatMap((transfer) => {
    if (transfer.amountMinor <= 0n) throw new Error(`ledger transfer amounts must be positive (${transfer.amountMinor})`);
    if (transfer.from === transfer.to) throw new Error("a ledger transfer needs two different accounts");
    const pair: [string, string] = [newId("cle"), newId("cle")];
    ids.push(pair);
    const base = {
      organizationId: auth.organizationId,
      environment: auth.environment,
      journalId: journal.journalId,
      kind: journal.kind,
      programmeId: journal.programmeId,
      cardId: journal.cardId,
      asset: journal.asset,
      amountMinor: transfer.amountMinor.toString(),
      createdAt: uow.now,
    };
    return [
      { ...base, id: pair[0], account: transfer.from, direction: "debit" },
      { ...base, id: pair[1], account: transfer.to, direction: "credit" },
    ];
  });
  await guardCardWrite(journal.failAs ?? "ledger", () => uow.tx.insertInto("CardLedgerEntry").values(rows).execute());
  return ids;
}

/** Compensation of postings whose issuer call failed: removes their entries (nothing read them as confirmed funds:
 * see readSpendableBalance). */
export async function deleteLedgerJournals(tx: Tx, journalIds: string[]): Promise<void> {
  if (journalIds.length > 0) await tx.deleteFrom("CardLedgerEntry").where("journalId", "in", journalIds).execute();
}
