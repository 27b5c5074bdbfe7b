// Every write handler answers through this: it runs the request's unit of work (server/db/unit-of-work.ts) with the
// request's Idempotency-Key and sends what it decided: the fresh answer, or the stored one with Idempotent-Replayed.
import type { Request, Response } from "express";
import type { Config } from "../config.ts";
import type { Database } from "../db/open-database.ts";
import {
  type Outcome,
  type PendingProviderStep,
  runUnitOfWork,
  type StoredBodyCodec,
  type UnitOfWork,
  type UnitOfWorkOptions,
} from "../db/unit-of-work/index.ts";
import { webhookSecretsKey } from "../domain/webhooks/secrets-key.ts";
import { openSecret, sealSecret } from "../lib/webhooks/secret-box.ts";
import { renderError } from "../middleware/error-handler.ts";
import { crashAfterCommitIfInjected, stepFaultsFor } from "./fault-injection.ts";
import { sendText } from "./send-text.ts";

export interface UnitOfWorkDeps {
  db: Database;
  config: Pick<Config, "idempotencyTtlHours" | "idempotencyLockSeconds" | "reconcileAfterSeconds" | "faultInjection" | "webhooks">;
}

/** An answer that carries a secret (`x-seal-stored-answer` in the spec) rests sealed in the Idempotency-Key's record. */
function sealedAtRest(config: UnitOfWorkDeps["config"]): StoredBodyCodec {
  const key = webhookSecretsKey(config.webhooks);
  return { seal: (body) => sealSecret(body, key), open: (stored) => openSecret(stored, key) };
}

export async function respondWithUnitOfWork(
  req: Request,
  res: Response,
  deps: UnitOfWorkDeps,
  work: (uow: UnitOfWork) => Promise<Outcome | PendingProviderStep>,
  options: Pick<UnitOfWorkOptions, "keyCheckedAtClose"> = {},
): Promise<void> {
  const sent = await runUnitOfWork(
    {
      db: deps.db.kysely,
      claim: req.ctx.idempotency,
      storedBody: req.ctx.operation?.sealStoredAnswer ? sealedAtRest(deps.config) : undefined,
      ttlHours: deps.config.idempotencyTtlHours,
      lockSeconds: deps.config.idempotencyLockSeconds,
      renderError: (error) => renderError(req, error),
      keyCheckedAtClose: options.keyCheckedAtClose,
      keysToReadFirst: deps.db.keysToReadFirst,
      reconcileAfterSeconds: deps.config.reconcileAfterSeconds,
      faults: stepFaultsFor(deps.config.faultInjection, req.ctx.operation?.operationId),
      claimReleases: deps.db.claimReleases,
    },
    work,
  );
  if (sent.replayed) res.setHeader("Idempotent-Replayed", "true");
  else crashAfterCommitIfInjected(deps.config.faultInjection, req.ctx.operation?.operationId);
  for (const [name, value] of Object.entries(sent.headers)) res.setHeader(name, value);
  // The stored bytes as they were first sent (validated then); no parse and re-serialise on the replay path.
  sendText(req, res, sent.status, sent.contentType, sent.body);
}
