// Durable idempotency records (IETF draft semantics). A request first reserves its key (a short write of an
// in-progress record with a lock); the business write then completes the record in the same transaction, so the stored
// response exists exactly when the effect does. A crashed request's lock expires and the retry takes over.
import { randomBytes } from "node:crypto";
import type { IdempotencyReservation } from "../context.ts";
import type { Db } from "../db/open-database.ts";
import { isUniqueViolation } from "../errors/database-errors.ts";
import { ServiceError } from "../errors/service-error.ts";
import type { Prisma } from "../generated/prisma/client.ts";
import { newId } from "../lib/ids.ts";

export interface StoredResponse {
  status: number;
  contentType: string;
  body: string;
}

export type ReserveOutcome =
  | { kind: "reserved"; reservation: IdempotencyReservation & { lockToken: string } }
  | { kind: "replay"; response: StoredResponse }
  | { kind: "in_progress" }
  | { kind: "mismatch" };

export interface ReserveInput {
  organizationId: string;
  apiKeyId: string;
  method: string;
  path: string;
  key: string;
  fingerprint: string;
}

export type Tx = Prisma.TransactionClient;

export interface IdempotencyStoreOptions {
  ttlHours: number;
  lockSeconds: number;
  now?: () => Date;
}

export class IdempotencyStore {
  constructor(
    private readonly prisma: Db,
    private readonly options: IdempotencyStoreOptions,
  ) {}

  private now(): Date {
    return this.options.now?.() ?? new Date();
  }

  private lockUntil(now: Date): Date {
    return new Date(now.getTime() + this.options.lockSeconds * 1000);
  }

  /** Throws ServiceError IDEMPOTENCY_UNAVAILABLE when the store cannot be used; the request must then do nothing. */
  async reserve(input: ReserveInput): Promise<ReserveOutcome> {
    try {
      return await this.reserveOnce(input, 0);
    } catch (error) {
      if (error instanceof ServiceError) throw error;
      throw new ServiceError("IDEMPOTENCY_UNAVAILABLE", "The idempotency store is unavailable; the request was not executed", {
        retryAfterSeconds: 5,
        cause: error,
      });
    }
  }

  private async reserveOnce(input: ReserveInput, attempt: number): Promise<ReserveOutcome> {
    const now = this.now();
    const lockToken = randomBytes(16).toString("hex");
    const id = newId("idem");
    try {
      await this.prisma.idempotencyRecord.create({
        data: {
          id,
          ...input,
          state: "in_progress",
          lockToken,
          lockedUntil: this.lockUntil(now),
          expiresAt: new Date(now.getTime() + this.options.ttlHours * 3_600_000),
        },
      });
      return { kind: "reserved", reservation: { recordId: id, key: input.key, fingerprint: input.fingerprint, lockToken } };
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
    }
    const existing = await this.prisma.idempotencyRecord.findUnique({
      where: { organizationId_apiKeyId_key: { organizationId: input.organizationId, apiKeyId: input.apiKeyId, key: input.key } },
    });
    if (!existing) return attempt < 3 ? this.reserveOnce(input, attempt + 1) : { kind: "in_progress" };
    if (existing.expiresAt <= now) {
      // Expired but not yet purged: the key is free again.
      await this.prisma.idempotencyRecord.deleteMany({ where: { id: existing.id, expiresAt: { lte: now } } });
      return attempt < 3 ? this.reserveOnce(input, attempt + 1) : { kind: "in_progress" };
    }
    if (existing.fingerprint !== input.fingerprint) return { kind: "mismatch" };
    if (existing.state === "completed" && existing.responseStatus !== null && existing.responseBody !== null) {
      const headers = (existing.responseHeaders ?? {}) as { contentType?: string };
      return {
        kind: "replay",
        response: { status: existing.responseStatus, contentType: headers.contentType ?? "application/json", body: existing.responseBody },
      };
    }
    if (existing.lockedUntil > now) return { kind: "in_progress" };
    // The holder's lock expired (it crashed or hung): take the record over, unless another retry just did.
    const takeover = await this.prisma.idempotencyRecord.updateMany({
      where: { id: existing.id, state: "in_progress", lockToken: existing.lockToken },
      data: { lockToken, lockedUntil: this.lockUntil(now) },
    });
    if (takeover.count === 0) return { kind: "in_progress" };
    return { kind: "reserved", reservation: { recordId: existing.id, key: input.key, fingerprint: input.fingerprint, lockToken } };
  }

  /** Completes the record inside the business transaction. If the lock was lost, throws so the transaction rolls back. */
  async completeInTransaction(tx: Tx, reservation: ReserveOutcomeReservation, response: StoredResponse): Promise<void> {
    const updated = await tx.idempotencyRecord.updateMany({
      where: { id: reservation.recordId, state: "in_progress", lockToken: reservation.lockToken },
      data: {
        state: "completed",
        responseStatus: response.status,
        responseHeaders: { contentType: response.contentType },
        responseBody: response.body,
      },
    });
    if (updated.count === 0) {
      throw new ServiceError("IDEMPOTENCY_IN_PROGRESS", "Another request with this Idempotency-Key took over; retry to get its result");
    }
  }

  /** Stores an error response (outside any business transaction, which has rolled back). */
  async complete(reservation: ReserveOutcomeReservation, response: StoredResponse): Promise<void> {
    await this.completeInTransaction(this.prisma as unknown as Tx, reservation, response);
  }

  /** Frees the key after a transient failure (429/503), so a retry executes. */
  async release(reservation: ReserveOutcomeReservation): Promise<void> {
    await this.prisma.idempotencyRecord.deleteMany({
      where: { id: reservation.recordId, state: "in_progress", lockToken: reservation.lockToken },
    });
  }

  /** Deletes expired records; returns how many. */
  async purgeExpired(): Promise<number> {
    const { count } = await this.prisma.idempotencyRecord.deleteMany({ where: { expiresAt: { lte: this.now() } } });
    return count;
  }
}

export type ReserveOutcomeReservation = Extract<ReserveOutcome, { kind: "reserved" }>["reservation"];
