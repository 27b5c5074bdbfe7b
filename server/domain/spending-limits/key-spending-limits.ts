// Where a key's spending limits are written (with the key, never changed after) and how they are read with it.
import { type Expression, sql } from "kysely";
import type { UnitOfWork } from "../../db/unit-of-work/index.ts";
import { normaliseAmount, type SpendingLimit } from "./spending-limit-rules.ts";

/** Writes the limits of a key created in this unit of work (its `spendingLimited` flag is set by the caller). */
export function recordSpendingLimits(uow: UnitOfWork, apiKeyId: string, limits: readonly SpendingLimit[]): void {
  if (limits.length === 0) return;
  uow.insertLater(
    "ApiKeySpendingLimit",
    limits.map((l) => ({ apiKeyId, asset: l.asset, perCall: l.perCall, per24h: l.per24h })),
  );
}

/** A select expression: the limits of the key whose id is `keyId`, as a JSON array ordered by asset. */
export function spendingLimitsJson(keyId: Expression<string>) {
  return sql<
    StoredLimit[] | string
  >`(select coalesce(json_agg(json_build_object('asset', l."asset", 'perCall', l."perCall"::text, 'per24h', l."per24h"::text) order by l."asset"), '[]'::json) from "ApiKeySpendingLimit" l where l."apiKeyId" = ${keyId})`;
}

interface StoredLimit {
  asset: string;
  perCall: string | null;
  per24h: string | null;
}

/** The limits as answered: amounts in their shortest form ("100", not the column's "100.000000000000000000"). */
export function toSpendingLimitDtos(stored: readonly StoredLimit[] | string | null | undefined): SpendingLimit[] {
  const rows: StoredLimit[] = typeof stored === "string" ? JSON.parse(stored) : (stored ?? []);
  return rows.map((l) => ({
    asset: l.asset,
    perCall: l.perCall === null ? null : normaliseAmount(l.perCall),
    per24h: l.per24h === null ? null : normaliseAmount(l.per24h),
  }));
}
