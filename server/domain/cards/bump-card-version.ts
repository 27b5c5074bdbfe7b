import type { Updateable } from "kysely";
import { compareAndSet } from "../../db/compare-and-set.ts";
import type { DB } from "../../db/kysely.ts";
import type { UnitOfWork } from "../../db/unit-of-work/index.ts";
import { ServiceError } from "../../errors/service-error.ts";
import type { CardRow } from "./card-rows.ts";
import { guardCardWrite } from "./guard-card-write.ts";

/** Writes the card record (optimistic concurrency on `version`, on top of the row lock the caller holds): its new
 * fields, `version + 1` and `updatedAt`. A version clash → 409 CARD_RECORD_CONFLICT; a failed write → 500
 * CARD_RECORD_WRITE_FAILED. */
export async function bumpCardVersion(uow: UnitOfWork, card: CardRow, data: Updateable<DB["Card"]> = {}): Promise<CardRow> {
  const updated = await guardCardWrite("record", () => compareAndSet(uow.tx, "Card", card, { ...data, updatedAt: uow.now }));
  if (!updated) throw new ServiceError("CARD_RECORD_CONFLICT", "The card changed concurrently; retry");
  return updated;
}

/** Compensation when the issuer refused a change written before the call: puts the fields `changed` back as they were
 * in `before`. When nothing else wrote the card since (its version is still the one this request wrote), the whole
 * record returns to `before`, version and updatedAt included, as if nothing happened; otherwise the fields go back only
 * where they still hold this request's values (a later confirmed change stands), with a new version. */
export async function revertCardUpdate(
  uow: UnitOfWork,
  before: CardRow,
  after: CardRow,
  changed: ReadonlyArray<"status" | "statusReason" | "limits" | "pendingUpdate">,
): Promise<void> {
  const restore: Updateable<DB["Card"]> = {};
  for (const field of changed) restore[field] = restoredValue(before, field) as never;
  const exact = await uow.tx
    .updateTable("Card")
    .set({ ...restore, version: before.version, updatedAt: before.updatedAt })
    .where("id", "=", before.id)
    .where("version", "=", after.version)
    .executeTakeFirst();
  if (exact.numUpdatedRows > 0n || changed.length === 0) return;
  const current = await uow.tx.selectFrom("Card").selectAll().where("id", "=", before.id).forUpdate().executeTakeFirst();
  if (!current || !changed.every((field) => sameValue(current[field], after[field]))) return;
  await uow.tx
    .updateTable("Card")
    .set({ ...restore, version: current.version + 1, updatedAt: uow.now })
    .where("id", "=", before.id)
    .execute();
}

/** A field's value in `before`, as written back (the JSON columns from their text, SQL NULL for none). */
function restoredValue(before: CardRow, field: "status" | "statusReason" | "limits" | "pendingUpdate"): unknown {
  if (field === "limits") return JSON.stringify(before.limits);
  if (field === "pendingUpdate") return before.pendingUpdate === null ? null : JSON.stringify(before.pendingUpdate);
  return before[field];
}

/** Equality of column values as read back (JSON objects compare regardless of key order, as jsonb stores them). */
function sameValue(a: unknown, b: unknown): boolean {
  const canonical = (value: unknown): unknown =>
    value && typeof value === "object" && !Array.isArray(value)
      ? Object.fromEntries(
          Object.keys(value)
            .sort()
            .map((k) => [k, canonical((value as Record<string, unknown>)[k])]),
        )
      : Array.isArray(value)
        ? value.map(canonical)
        : value;
  return JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));
}
