// Claims due webhook deliveries for one worker. One statement: the inner SELECT … FOR UPDATE SKIP LOCKED picks due,
// unleased deliveries that no concurrent claimer has locked, and the UPDATE gives them a lease (leaseUntil, leaseToken)
// — so two workers (two server instances) never hold the same delivery, and nothing stays locked while sending: the
// lease, not a transaction, keeps the delivery while its HTTP attempt runs. A worker that dies mid-delivery loses the
// delivery when the lease ends and another worker sends it again (at least once). The UPDATE joins what sending needs.
import { randomBytes } from "node:crypto";
import type { Queryable } from "../db/kysely.ts";

export interface ClaimedDelivery {
  id: string;
  endpointId: string;
  eventId: string;
  /** Attempts made before this one. */
  attemptCount: number;
  /** Of those, the manual retries' (not on the retry schedule). */
  manualAttemptCount: number;
  /** This attempt is a manual retry: when it fails, the delivery resumes at `resumeAttemptAt` (null: it ends failed). */
  manual: boolean;
  resumeAttemptAt: Date | null;
  /** When this attempt was due (its lag, GET /metrics, is how long after this it starts). */
  dueAt: Date;
  createdAt: Date;
  /** The lease this worker holds; recording the attempt checks it. */
  leaseToken: string;
  event: {
    id: string;
    type: string;
    createdAt: Date;
    organizationId: string;
    environment: string;
    simulated: boolean | null;
    data: unknown;
  };
  endpoint: {
    url: string;
    environment: string;
    status: string;
    secretSealed: string;
    previousSecretSealed: string | null;
    previousSecretExpiresAt: Date | null;
  };
}

export async function claimDeliveries(
  db: Queryable,
  options: { now: Date; limit: number; leaseSeconds: number },
): Promise<ClaimedDelivery[]> {
  const { now, limit, leaseSeconds } = options;
  if (limit <= 0) return [];
  const leaseToken = randomBytes(12).toString("base64url");
  const leaseUntil = new Date(now.getTime() + leaseSeconds * 1000);
  const rows = await db
    .updateTable("WebhookDelivery as d")
    .from(["Event as e", "WebhookEndpoint as we"])
    .set({ leaseUntil, leaseToken })
    .where("d.id", "in", (eb) =>
      eb
        .selectFrom("WebhookDelivery as due")
        .select("due.id")
        .where("due.status", "=", "pending")
        .where("due.nextAttemptAt", "<=", now)
        .where((w) => w.or([w("due.leaseUntil", "is", null), w("due.leaseUntil", "<", now)]))
        .orderBy("due.nextAttemptAt", "asc")
        .limit(limit)
        .forUpdate()
        .skipLocked(),
    )
    .whereRef("e.id", "=", "d.eventId")
    .whereRef("we.id", "=", "d.endpointId")
    .returning([
      "d.id",
      "d.endpointId",
      "d.eventId",
      "d.attemptCount",
      "d.manualAttemptCount",
      "d.manualRetry",
      "d.resumeAttemptAt",
      "d.nextAttemptAt",
      "d.createdAt",
      "e.type as eventType",
      "e.createdAt as eventCreatedAt",
      "e.organizationId as eventOrganizationId",
      "e.environment as eventEnvironment",
      "e.simulated as eventSimulated",
      "e.data as eventData",
      "we.url",
      "we.environment as endpointEnvironment",
      "we.status as endpointStatus",
      "we.secretSealed",
      "we.previousSecretSealed",
      "we.previousSecretExpiresAt",
    ])
    .execute();
  return rows.map((row) => ({
    id: row.id,
    endpointId: row.endpointId,
    eventId: row.eventId,
    attemptCount: Number(row.attemptCount),
    manualAttemptCount: Number(row.manualAttemptCount),
    manual: row.manualRetry,
    resumeAttemptAt: row.resumeAttemptAt ? new Date(row.resumeAttemptAt as unknown as string | Date) : null,
    dueAt: new Date((row.nextAttemptAt ?? row.createdAt) as unknown as string | Date),
    createdAt: new Date(row.createdAt as unknown as string | Date),
    leaseToken,
    event: {
      id: row.eventId,
      type: row.eventType,
      createdAt: new Date(row.eventCreatedAt as unknown as string | Date),
      organizationId: row.eventOrganizationId,
      environment: row.eventEnvironment,
      simulated: row.eventSimulated,
      data: typeof row.eventData === "string" ? JSON.parse(row.eventData) : row.eventData,
    },
    endpoint: {
      url: row.url,
      environment: row.endpointEnvironment,
      status: row.endpointStatus,
      secretSealed: row.secretSealed,
      previousSecretSealed: row.previousSecretSealed,
      previousSecretExpiresAt: row.previousSecretExpiresAt ? new Date(row.previousSecretExpiresAt as unknown as string | Date) : null,
    },
  }));
}

/** Deliveries waiting: `due` now (the queue a worker has yet to take) and `scheduled` for a later retry (GET /metrics).
 * Both counts use the (status, nextAttemptAt) index. */
export async function webhookQueueDepth(db: Queryable, now: Date): Promise<{ due: number; scheduled: number }> {
  const row = await db
    .selectFrom("WebhookDelivery")
    .select((eb) => [
      eb.fn.countAll().filterWhere("nextAttemptAt", "<=", now).as("due"),
      eb.fn.countAll().filterWhere("nextAttemptAt", ">", now).as("scheduled"),
    ])
    .where("status", "=", "pending")
    .executeTakeFirstOrThrow();
  return { due: Number(row.due), scheduled: Number(row.scheduled) };
}
