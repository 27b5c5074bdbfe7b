// The webhook delivery worker of one server process (started in server/main.ts when WEBHOOK_POLL_INTERVAL_MS > 0).
// Every poll it claims due deliveries (claim-deliveries.ts: SKIP LOCKED and a lease, so several instances share the
// queue without sending the same attempt twice), sends each signed to its endpoint concurrently, and records the
// outcome. Polls never overlap; a full claim polls again at once, so a burst drains without waiting a poll interval.
// Sends run beside the polls, not inside them: an endpoint that takes its whole 10 s timeout holds one slot, not the
// queue. Everything runs on timers and sockets, never in a request's path. A failing poll is logged and the next one
// runs as usual. Why our own tables and SKIP LOCKED rather than graphile-worker or pg-boss: the queue must also run on
// PGlite (embedded, one process), and deliveries are written in the request's own transaction (the outbox).

import { webhookHeaders } from "../../sdk/src/webhooks/standard-webhooks.ts";
import type { WebhookConfig } from "../config.ts";
import type { Queryable } from "../db/kysely.ts";
import { openSecretWithAny, parseSecretsKey } from "../lib/webhooks/secret-box.ts";
import type { Logger } from "../logger.ts";
import { type ClaimedDelivery, claimDeliveries } from "./claim-deliveries.ts";
import { eventEnvelopeJson } from "./event-envelope.ts";
import { recordAttempt, recordNotSent } from "./record-attempt.ts";
import { closeWebhookSockets, sendWebhook } from "./send-webhook.ts";

export interface WebhookDeliveryWorker {
  /** Stops polling and waits for the poll and the attempts in flight (each records or is left to its lease). */
  stop(): Promise<void>;
  /** Polls until nothing is due now and waits for every attempt started (tests, benchmarks). */
  drain(): Promise<void>;
}

/** Attempts one worker keeps in flight, in batches: a few slow endpoints must not stall the others. */
export const IN_FLIGHT_BATCHES = 4;

export function startWebhookDelivery(options: {
  db: Queryable;
  config: WebhookConfig;
  logger?: Logger;
  now?: () => Date;
  /** Each attempt's lag: how long after it was due it starts (GET /metrics). */
  onAttemptLag?: (seconds: number) => void;
}): WebhookDeliveryWorker {
  const { db, config, logger } = options;
  const now = options.now ?? (() => new Date());
  if (!config.secretsKey) throw new Error("webhook delivery needs WEBHOOK_SECRETS_KEY (server/webhook-secrets-key.ts resolves it)");
  // Seals under the first; during a WEBHOOK_SECRETS_KEY rotation, secrets not yet resealed open with the previous one.
  const secretsKeys = [config.secretsKey, config.previousSecretsKey].filter((k): k is string => Boolean(k)).map(parseSecretsKey);
  const maxInFlight = config.batchSize * IN_FLIGHT_BATCHES;

  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let polls: Promise<unknown> = Promise.resolve();
  const inFlight = new Set<Promise<void>>();

  /** Runs polls one after another, never two at once (the timer and drain() both poll). */
  const exclusive = <T>(fn: () => Promise<T>): Promise<T> => {
    const run = polls.then(fn);
    polls = run.catch(() => {});
    return run;
  };

  /** One poll; `full`: the claim came back full, so more may be due now. `saturated`: no slot was free to claim into. */
  const poll = async (): Promise<{ claimed: number; full: boolean; saturated?: boolean }> => {
    try {
      const limit = Math.min(config.batchSize, maxInFlight - inFlight.size);
      if (limit <= 0) return { claimed: 0, full: false, saturated: true };
      const claimed = await claimDeliveries(db, { now: now(), limit, leaseSeconds: config.leaseSeconds });
      for (const delivery of claimed) {
        const attempt = deliver(delivery).catch((err) =>
          // Not recorded (the database failed, or the sealed secret would not open): the delivery keeps its lease and is
          // tried again when the lease ends.
          logger?.error({ err, deliveryId: delivery.id }, "webhook delivery attempt failed before it was recorded"),
        );
        const tracked = attempt.finally(() => inFlight.delete(tracked));
        inFlight.add(tracked);
      }
      return { claimed: claimed.length, full: claimed.length === limit };
    } catch (err) {
      logger?.warn({ err }, "webhook delivery poll failed");
      return { claimed: 0, full: false };
    }
  };

  /** The endpoint's secret, and during a rotation's overlap the old one too: receivers still holding it keep verifying. */
  const signingSecrets = (delivery: ClaimedDelivery, at: Date): string[] => {
    const secrets = [openSecretWithAny(delivery.endpoint.secretSealed, secretsKeys)];
    const { previousSecretSealed, previousSecretExpiresAt } = delivery.endpoint;
    if (previousSecretSealed && previousSecretExpiresAt && previousSecretExpiresAt > at)
      secrets.push(openSecretWithAny(previousSecretSealed, secretsKeys));
    return secrets;
  };

  const deliver = async (delivery: ClaimedDelivery): Promise<void> => {
    if (delivery.endpoint.status !== "enabled") {
      await recordNotSent(db, delivery);
      logger?.info({ deliveryId: delivery.id, endpointId: delivery.endpointId }, "webhook endpoint not enabled: delivery not sent");
      return;
    }
    const attemptedAt = now();
    options.onAttemptLag?.(Math.max(0, attemptedAt.getTime() - delivery.dueAt.getTime()) / 1000);
    let secrets: string[];
    try {
      secrets = signingSecrets(delivery, attemptedAt);
    } catch (err) {
      // The sealed secret does not open under this key (WEBHOOK_SECRETS_KEY changed): a failed attempt like any other,
      // so the delivery follows its schedule and ends, instead of being reclaimed at the head of the queue forever.
      logger?.error({ err, deliveryId: delivery.id, endpointId: delivery.endpointId }, "webhook signing secret could not be opened");
      await recordAttempt(
        db,
        delivery,
        { httpStatus: null, error: "signing_failed", durationMs: 0 },
        {
          attemptedAt,
          retryScheduleSeconds: config.retryScheduleSeconds,
          now: now(),
        },
      );
      return;
    }
    const body = eventEnvelopeJson(delivery.event);
    const headers = webhookHeaders({ id: delivery.event.id, timestamp: Math.floor(attemptedAt.getTime() / 1000), body, secrets });
    const result = await sendWebhook({
      url: delivery.endpoint.url,
      environment: delivery.endpoint.environment === "production" ? "production" : "sandbox",
      body,
      headers,
      timeoutMs: config.attemptTimeoutMs,
      sandboxPrivateTargets: config.sandboxPrivateTargets,
    });
    const recorded = await recordAttempt(db, delivery, result, {
      attemptedAt,
      retryScheduleSeconds: config.retryScheduleSeconds,
      now: now(),
    });
    const fields = { deliveryId: delivery.id, eventId: delivery.eventId, attempt: delivery.attemptCount + 1, ...result, ...recorded };
    if (recorded.endpointDisabled) logger?.warn(fields, "webhook endpoint disabled: it failed for the whole retry schedule");
    else if (recorded.outcome === "lease_lost") logger?.warn(fields, "webhook delivery lease lost before the attempt was recorded");
    else if (result.error) logger?.info(fields, "webhook delivery attempt failed");
    else logger?.debug(fields, "webhook delivered");
  };

  const schedule = (delayMs: number) => {
    timer = setTimeout(() => {
      void exclusive(poll).then(({ full }) => {
        if (!stopped) schedule(full ? 0 : config.pollIntervalMs);
      });
    }, delayMs);
    timer.unref();
  };
  schedule(0);

  return {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await polls;
      await Promise.allSettled([...inFlight]);
      closeWebhookSockets();
    },
    async drain() {
      for (;;) {
        const { claimed, full, saturated } = await exclusive(poll);
        await Promise.allSettled([...inFlight]);
        if (claimed === 0 && !full && !saturated) return;
      }
    },
  };
}
