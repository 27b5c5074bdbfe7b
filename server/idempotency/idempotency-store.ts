// Durable idempotency records (IETF draft semantics). A request first reserves its key (a short write of an
// in-progress record with a lock); the business write then completes the record in the same transaction, so the stored
// response exists exactly when the effect does. A crashed request's lock expires and the retry takes over.
import { randomBytes } from "node:crypto";
import type { IdempotencyReservation } from "../context.ts";
import type { DirectSql } from "../db/direct-sql.ts";
import type { Db } from "../db/open-database.ts";
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

interface ExistingRecord {
  id: string;
  fingerprint: string;
  state: string;
  lockToken: string;
  lockedUntil: Date | string;
  expiresAt: Date | string;
  responseStatus: number | null;
  responseHeaders: unknown;
  responseBody: string | null;
}

export interface IdempotencyStoreOptions {
  ttlHours: number;
  lockSeconds: number;
  now?: () => Date;
}

export class IdempotencyStore {
  constructor(
    private readonly prisma: Db,
    private readonly sql: DirectSql,
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

  // Reservation and replay lookup run on every idempotent request, so they are direct statements on the driver (see
  // server/db/direct-sql.ts); ON CONFLICT DO NOTHING makes the common case — a new key — a single round trip.
  private async reserveOnce(input: ReserveInput, attempt: number): Promise<ReserveOutcome> {
    const now = this.now();
    const lockToken = randomBytes(16).toString("hex");
    const id = newId("idem");
    const expiresAt = new Date(now.getTime() + this.options.ttlHours * 3_600_000);
    const inserted = await this.sql.query(
      `INSERT INTO "IdempotencyRecord"
         ("id", "organizationId", "apiKeyId", "method", "path", "key", "fingerprint", "state", "lockToken", "lockedUntil", "expiresAt")
       VALUES ($1, $2, $3, $4, $5, $6, $7, 'in_progress', $8, $9, $10)
       ON CONFLICT ("organizationId", "apiKeyId", "key") DO NOTHING
       RETURNING "id"`,
      [
        id,
        input.organizationId,
        input.apiKeyId,
        input.method,
        input.path,
        input.key,
        input.fingerprint,
        lockToken,
        this.lockUntil(now),
        expiresAt,
      ],
    );
    if (inserted.length === 1) {
      return { kind: "reserved", reservation: { recordId: id, key: input.key, fingerprint: input.fingerprint, lockToken } };
    }
    const [existing] = await this.sql.query<ExistingRecord>(
      `SELECT "id", "fingerprint", "state", "lockToken", "lockedUntil", "expiresAt", "responseStatus", "responseHeaders", "responseBody"
         FROM "IdempotencyRecord" WHERE "organizationId" = $1 AND "apiKeyId" = $2 AND "key" = $3`,
      [input.organizationId, input.apiKeyId, input.key],
    );
    // Gone between the two statements (purged or released): try again.
    if (!existing) return attempt < 3 ? this.reserveOnce(input, attempt + 1) : { kind: "in_progress" };
    if (new Date(existing.expiresAt) <= now) {
      // Expired but not yet purged: the key is free again.
      await this.sql.query(`DELETE FROM "IdempotencyRecord" WHERE "id" = $1 AND "expiresAt" <= $2`, [existing.id, now]);
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
    if (new Date(existing.lockedUntil) > now) return { kind: "in_progress" };
    // The holder's lock expired (it crashed or hung): take the record over, unless another retry just did.
    const takeover = await this.sql.query(
      `UPDATE "IdempotencyRecord" SET "lockToken" = $1, "lockedUntil" = $2
        WHERE "id" = $3 AND "state" = 'in_progress' AND "lockToken" = $4 RETURNING "id"`,
      [lockToken, this.lockUntil(now), existing.id, existing.lockToken],
    );
    if (takeover.length === 0) return { kind: "in_progress" };
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
