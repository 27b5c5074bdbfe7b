import type { Request, Response } from "express";
import type { Db } from "../db/open-database.ts";
import type { IdempotencyStore, Tx } from "../idempotency/idempotency-store.ts";
import { crashAfterCommitIfInjected } from "./fault-injection.ts";

export interface WriteDeps {
  prisma: Db;
  idempotency: IdempotencyStore;
}

/** Runs a business write in one transaction that also completes the request's idempotency record, then responds.
 * Either the effect and its stored response both commit, or neither does. */
export async function commitWrite<T>(
  deps: WriteDeps,
  req: Request,
  res: Response,
  status: number,
  work: (tx: Tx) => Promise<T>,
): Promise<void> {
  const reservation = req.ctx.idempotency;
  const body = await deps.prisma.$transaction(async (tx) => {
    const result = await work(tx);
    if (reservation) {
      await deps.idempotency.completeInTransaction(tx, reservation, {
        status,
        contentType: "application/json; charset=utf-8",
        body: JSON.stringify(result),
      });
    }
    return result;
  });
  crashAfterCommitIfInjected(req.ctx.operation?.operationId);
  res.status(status).json(body);
}
