import type { Tx } from "../../idempotency/idempotency-store.ts";
import { newId } from "../../lib/ids.ts";

export interface ActivityInput {
  organizationId: string;
  environment: string;
  /** e.g. `payment.created`; metrics select on it (server/domain/metrics/catalogue.ts). */
  type: string;
  resourceId: string;
  /** Decimal string in USD, for volume metrics. */
  amountUsd?: string;
}

/** Appends an activity event inside the caller's transaction, so it exists exactly when the write does. */
export async function recordActivity(tx: Tx, input: ActivityInput): Promise<void> {
  await tx.activityEvent.create({ data: { id: newId("evt"), ...input } });
}
