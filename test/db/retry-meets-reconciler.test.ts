// A retry of a key whose write died between its two commits meets the reconciler settling that write, on both
// databases. The retry reads the key's record (in progress, its lease over); before it checks the open intent and
// clears the record, the reconciler commits the write's outcome: the record completed with the answer, the intent
// closed. The retry must replay that answer — not delete the completed record and execute the write a second time (a
// card funded twice, card.funded emitted twice: a flake of test/system/provider-reconcile.test.ts).
//
// The interleaving is made, not waited for: the retry runs on a Kysely whose first statement's answer (the key's
// record) is held until the reconciler has run. That read runs before any BEGIN (server/db/lazy-transaction.ts), so
// the reconciler is not blocked: on PostgreSQL it runs on the pool's other connection, on PGlite (one session) its
// transaction runs before the retry's begins.
import type { Kysely } from "kysely";
import { beforeAll, describe, expect, it } from "vitest";
import type { DB } from "../../server/db/kysely.ts";
import { STALE_RECORD_READS } from "../../server/db/unit-of-work/idempotency-claim.ts";
import {
  afterProviderCall,
  type IdempotencyClaim,
  type Outcome,
  runUnitOfWork,
  type UnitOfWork,
} from "../../server/db/unit-of-work/index.ts";
import { emitEvent } from "../../server/domain/events/emit-event.ts";
import type { IntentHandler } from "../../server/domain/reconcile/intent-handler.ts";
import { reconcileDueIntents } from "../../server/domain/reconcile/reconcile-intents.ts";
import type { ServiceError } from "../../server/errors/service-error.ts";
import { unitOfWorkFixture } from "../helpers/unit-of-work-fixture.ts";

const fixture = unitOfWorkFixture("retry_reconciler", 2);
let db: Kysely<DB>;
beforeAll(() => {
  db = fixture.db.kysely;
});

const FAMILY = "test_card.fund";
const RECONCILE_AFTER_SECONDS = 30;
/** The card issuer: how often it was asked to fund, by the funding's reference (its idempotency key). */
const fundings = new Map<string, number>();

/** The card's funding, as a card write does it: a reconcilable provider step, card.funded with its answer. */
function fund(claim: IdempotencyClaim, cardId: string) {
  const reference = `fund_${claim.key}`;
  const funded = (uow: UnitOfWork, transactionId: string): Outcome => {
    emitEvent(uow, {
      organizationId: claim.organizationId,
      environment: "sandbox",
      type: "card.funded",
      resourceId: cardId,
      data: { cardId, transactionId },
    });
    return { status: 200, body: { cardId, transactionId } };
  };
  const work = async () =>
    afterProviderCall({
      intent: { family: FAMILY, resourceId: cardId, reference, organizationId: claim.organizationId, environment: "sandbox" },
      call: async () => {
        fundings.set(reference, (fundings.get(reference) ?? 0) + 1);
        return `txn_${reference}`;
      },
      onResult: async (uow, transactionId: string) => funded(uow, transactionId),
    });
  // The reconciler's handler: the issuer funded it (once); settling emits card.funded and answers the key.
  const handler: IntentHandler<string> = {
    family: FAMILY,
    lookup: async (_db, intent) => {
      if (!fundings.get(intent.reference)) throw new Error("not funded");
      return `txn_${intent.reference}`;
    },
    settle: async (uow, _intent, transactionId) => funded(uow, transactionId),
    giveUp: async () => undefined,
  };
  return { work, handler, reference };
}

const options = (claim: IdempotencyClaim, kysely: Kysely<DB>, now: Date) => ({
  db: kysely,
  claim,
  ttlHours: 1,
  lockSeconds: 5,
  reconcileAfterSeconds: RECONCILE_AFTER_SECONDS,
  renderError: (e: ServiceError) => ({ contentType: "application/json", body: { code: e.code } }),
  now: () => now,
});

/** `kysely` whose every statement's answer is held until `meanwhile` has run (`n`: 0 for the first, the retry's read of
 * the key's record). */
function holdingAnswers(kysely: Kysely<DB>, meanwhile: (rows: unknown[], n: number) => Promise<void>): Kysely<DB> {
  let n = 0;
  return kysely.withPlugin({
    transformQuery: (args) => args.node,
    transformResult: async ({ result }) => {
      await meanwhile(result.rows, n++);
      return result;
    },
  });
}

class Crash extends Error {}

const onPGlite = (process.env.TEST_DATABASE_URL ?? "pglite:").startsWith("pglite:");

describe("a retry meets the reconciler", () => {
  it("the reconciler completes the key's record between the retry's read and its delete: the retry replays its answer, the card is funded once", async () => {
    const claim = fixture.claim();
    const cardId = `card_${claim.key}`;
    const { work, handler, reference } = fund(claim, cardId);
    const t0 = new Date();
    // The first attempt: the issuer funded the card, then the process died before the second transaction.
    const first = runUnitOfWork(
      {
        ...options(claim, db, t0),
        faults: {
          beforeResult: () => {
            throw new Crash();
          },
        },
      },
      work,
    );
    await expect(first).rejects.toBeInstanceOf(Crash);
    expect(fundings.get(reference)).toBe(1);

    // A minute later: the claim's lease is over and the intent past its deadline. The retry reads the record, then the
    // reconciler settles the funding before the retry goes on.
    const t1 = new Date(t0.getTime() + 60_000);
    const handlers = new Map([[FAMILY, handler]]);
    let readByRetry: unknown[] = [];
    let reconciled: Awaited<ReturnType<typeof reconcileDueIntents>> | undefined;
    const retryDb = holdingAnswers(db, async (rows, n) => {
      if (n > 0) return;
      readByRetry = rows;
      reconciled = await reconcileDueIntents(db, { now: t1, reconcileAfterSeconds: RECONCILE_AFTER_SECONDS, handlers });
    });
    const retry = await runUnitOfWork(options(claim, retryDb, t1), work);

    // The interleaving happened as meant: the retry read the claim in progress, the reconciler settled it after that.
    expect(readByRetry).toMatchObject([{ state: "in_progress", responseStatus: null }]);
    expect(reconciled).toMatchObject({ claimed: 1, settled: 1, errors: [] });
    // The retry is the reconciler's answer, replayed; the issuer was asked once; card.funded exists once.
    const events = await db.selectFrom("Event").select(["id", "type"]).where("resourceId", "=", cardId).execute();
    expect(
      {
        status: retry.status,
        replayed: retry.replayed,
        body: JSON.parse(retry.body),
        issuerCalls: fundings.get(reference),
        events: events.map((e) => e.type),
      },
      `events of ${cardId}: ${events.map((e) => e.id).join(", ")}`,
    ).toEqual({
      status: 200,
      replayed: true,
      body: { cardId, transactionId: `txn_${reference}` },
      issuerCalls: 1,
      events: ["card.funded"],
    });
    const record = await db.selectFrom("IdempotencyRecord").select(["state", "responseStatus"]).where("key", "=", claim.key).execute();
    expect(record).toEqual([{ state: "completed", responseStatus: 200 }]);
    expect(await db.selectFrom("ProviderIntent").select("id").where("resourceId", "=", cardId).execute()).toEqual([]);
  });

  // On PGlite (one session) nothing else can write once the retry's transaction has begun (with its first delete): the
  // record changes under it at most once there, so the bound is reached on PostgreSQL only.
  it.skipIf(onPGlite)(
    "a stale record that changes under every read: read again a bounded number of times, then 409, the work not run",
    async () => {
      const claim = fixture.claim();
      const now = new Date();
      await db
        .insertInto("IdempotencyRecord")
        .values({
          ...claim,
          id: `idem_${claim.key}`,
          state: "in_progress",
          lockToken: "holder",
          lockedUntil: new Date(now.getTime() - 1_000),
          expiresAt: new Date(now.getTime() + 3_600_000),
        })
        .execute();
      let reads = 0;
      // At each read of the record, someone changes it before this run can clear it.
      const retryDb = holdingAnswers(db, async (rows) => {
        if (!rows.some((row) => (row as { fingerprint?: string }).fingerprint === claim.fingerprint)) return;
        reads++;
        await db
          .updateTable("IdempotencyRecord")
          .set({ lockToken: `holder_${reads}` })
          .where("key", "=", claim.key)
          .execute();
      });
      let runs = 0;
      const answer = await runUnitOfWork(options(claim, retryDb, now), async () => {
        runs++;
        return { status: 201, body: {} };
      }).catch((e: unknown) => e);
      expect({ answer, reads, runs }).toMatchObject({
        answer: { status: 409, code: "IDEMPOTENCY_IN_PROGRESS", retryAfterSeconds: 1 },
        reads: STALE_RECORD_READS,
        runs: 0,
      });
    },
  );
});
