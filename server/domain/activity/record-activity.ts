import type { UnitOfWork } from "../../db/unit-of-work/index.ts";
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

/** Appends an activity event to the unit of work: written at commit, in the same transaction as the write it
 * describes, so it exists exactly when the write does (and costs no statement of its own). */
export function recordActivity(uow: UnitOfWork, input: ActivityInput, options: { keepOnError?: boolean } = {}): void {
  uow.insertLater("ActivityEvent", { id: newId("evt"), ...input, createdAt: uow.now }, options);
}
