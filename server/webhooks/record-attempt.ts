// Records one attempt of a claimed delivery: the attempt row and the delivery's new state (succeeded, pending with its
// next retry, or failed at the end of the schedule), both only while this worker still holds the lease — a worker whose
// lease ran out (it was too slow, another worker took the delivery over) records nothing. The usual case is one
// statement (data-modifying CTE). A final failure runs as a unit of work: if the endpoint had no successful delivery
// since this delivery was created it has failed for the whole schedule, so it is disabled (reason failing) and
// `webhook_endpoint.disabled` is emitted, in the transaction that records the failure.
//
// A manual retry (POST …/deliveries/{id}/retry) is an attempt off the schedule: it does not use up the next automatic
// attempt. Attempts are numbered in the order they ran, but the schedule counts the automatic ones only; a manual attempt
// that fails leaves the delivery where the schedule had it — pending with the automatic attempt it stepped in front of,
// or failed when none was left — and never judges the endpoint. A manual attempt that succeeds ends the delivery.

import { runBackgroundUnitOfWork } from "../db/background-unit-of-work.ts";
import type { Queryable, Tx } from "../db/kysely.ts";
import type { UnitOfWork } from "../db/unit-of-work/index.ts";
import { emitEvent } from "../domain/events/emit-event.ts";
import { toWebhookEndpointDto } from "../domain/webhooks/webhook-endpoint-dto.ts";
import { newId } from "../lib/ids.ts";
import type { ClaimedDelivery } from "./claim-deliveries.ts";
import { maxAttempts, nextAttemptAt } from "./retry-schedule.ts";
import type { AttemptResult } from "./send-webhook.ts";

export type RecordedOutcome = "succeeded" | "retrying" | "failed" | "lease_lost";

export interface Recorded {
  outcome: RecordedOutcome;
  /** The endpoint was disabled by this failure (and webhook_endpoint.disabled emitted). */
  endpointDisabled: boolean;
}

export async function recordAttempt(
  db: Queryable,
  delivery: ClaimedDelivery,
  result: AttemptResult,
  options: { attemptedAt: Date; retryScheduleSeconds: readonly number[]; now?: Date },
): Promise<Recorded> {
  const now = options.now ?? new Date();
  const attemptNumber = delivery.attemptCount + 1;
  // Where this attempt stands on the retry schedule (manual attempts are not on it).
  const automaticNumber = attemptNumber - delivery.manualAttemptCount;
  const succeeded = result.error === null;
  const next = succeeded
    ? null
    : delivery.manual
      ? delivery.resumeAttemptAt
      : nextAttemptAt(automaticNumber, now, options.retryScheduleSeconds);
  const status = succeeded ? "succeeded" : next ? "pending" : "failed";
  const write = (q: Queryable | Tx) =>
    q
      .with("updated", (qc) =>
        qc
          .updateTable("WebhookDelivery")
          .set({
            status,
            attemptCount: attemptNumber,
            manualAttemptCount: delivery.manualAttemptCount + (delivery.manual ? 1 : 0),
            // Whatever this attempt was, it ends a manual retry: one asked for while it was in flight is absorbed by it.
            manualRetry: false,
            resumeAttemptAt: null,
            nextAttemptAt: next,
            leaseUntil: null,
            leaseToken: null,
            lastAttemptAt: options.attemptedAt,
            lastHttpStatus: result.httpStatus,
          })
          .where("id", "=", delivery.id)
          .where("leaseToken", "=", delivery.leaseToken)
          .returning("id"),
      )
      .insertInto("WebhookDeliveryAttempt")
      .columns(["id", "deliveryId", "attemptNumber", "attemptedAt", "durationMs", "httpStatus", "error"])
      .expression((eb) =>
        eb
          .selectFrom("updated")
          .select((s) => [
            s.val(newId("wda")).as("id"),
            "updated.id as deliveryId",
            s.val(attemptNumber).as("attemptNumber"),
            s.val(options.attemptedAt).as("attemptedAt"),
            s.val(result.durationMs).as("durationMs"),
            s.val(result.httpStatus).as("httpStatus"),
            s.val(result.error).as("error"),
          ]),
      )
      .returning("id")
      .execute();

  if (status !== "failed") {
    const rows = await write(db);
    return { outcome: rows.length === 0 ? "lease_lost" : succeeded ? "succeeded" : "retrying", endpointDisabled: false };
  }
  return runBackgroundUnitOfWork(db, now, async (uow) => {
    const rows = await write(uow.tx);
    if (rows.length === 0) return { outcome: "lease_lost", endpointDisabled: false } satisfies Recorded;
    // Only the schedule's own last attempt judges the endpoint. A manual retry of a delivery that already ran its
    // schedule (POST …/deliveries/{id}/retry) gets one attempt, and its failure fails that delivery alone.
    const endOfSchedule = !delivery.manual && automaticNumber === maxAttempts(options.retryScheduleSeconds);
    const endpointDisabled = endOfSchedule && (await disableIfFailingThroughout(uow, delivery));
    return { outcome: "failed", endpointDisabled } satisfies Recorded;
  });
}

/** No success to the endpoint since this delivery was created → disable it and say so with an event. */
async function disableIfFailingThroughout(uow: UnitOfWork, delivery: ClaimedDelivery): Promise<boolean> {
  const success = await uow.tx
    .selectFrom("WebhookDelivery")
    .select("id")
    .where("endpointId", "=", delivery.endpointId)
    .where("status", "=", "succeeded")
    .where("lastAttemptAt", ">=", delivery.createdAt)
    .limit(1)
    .executeTakeFirst();
  if (success) return false;
  const endpoint = await uow.tx
    .updateTable("WebhookEndpoint")
    .set({ status: "disabled", disabledReason: "failing", updatedAt: uow.now })
    .where("id", "=", delivery.endpointId)
    .where("status", "=", "enabled")
    .returningAll()
    .executeTakeFirst();
  // Already disabled (by its owner, or by another delivery's final failure): nothing more to say.
  if (!endpoint) return false;
  emitEvent(uow, {
    organizationId: endpoint.organizationId,
    environment: endpoint.environment,
    type: "webhook_endpoint.disabled",
    resourceId: endpoint.id,
    data: toWebhookEndpointDto(endpoint, uow.now),
  });
  return true;
}

/**
 * A claimed delivery whose endpoint is no longer enabled (disabled by its owner or for failing) is not sent: it is
 * marked failed with no attempt, so it leaves the due queue. It can be sent again with the retry operation.
 */
export async function recordNotSent(db: Queryable, delivery: ClaimedDelivery): Promise<boolean> {
  const rows = await db
    .updateTable("WebhookDelivery")
    .set({ status: "failed", nextAttemptAt: null, manualRetry: false, resumeAttemptAt: null, leaseUntil: null, leaseToken: null })
    .where("id", "=", delivery.id)
    .where("leaseToken", "=", delivery.leaseToken)
    .returning("id")
    .execute();
  return rows.length > 0;
}
