// An Idempotency-Key claim is released when its request ends, not when its lease does (issue 26), on both databases.
// The database "goes down" through a Kysely plugin on the unit of work's handle: armed, it loses the answer of the next
// statement after it ran (a commit that landed unheard), and while down it refuses every statement it builds before
// sending it. Covered: the first transaction's commit lost (the claim and intent stand, the provider was never called),
// the release failing while the database is down, release and compensation once it answers again, a claim that is no
// longer the request's left alone, and a retry that meets a claim this instance still has to release taking it over.
import type { KyselyPlugin } from "kysely";
import { beforeAll, describe, expect, it } from "vitest";
import { ClaimReleases, MAX_BACKOFF_MS } from "../../server/db/claim-releases.ts";
import type { Database } from "../../server/db/open-database.ts";
import {
  afterProviderCall,
  type ClaimReleaser,
  type IdempotencyClaim,
  runUnitOfWork,
  type StrandedClaim,
  type UnitOfWork,
} from "../../server/db/unit-of-work/index.ts";
import type { ServiceError } from "../../server/errors/service-error.ts";
import { toServiceError } from "../../server/errors/to-service-error.ts";
import { unitOfWorkFixture } from "../helpers/unit-of-work-fixture.ts";

const fixture = unitOfWorkFixture("claim_releases", 3);
/** How many claims were made: ids of a test's own rows are numbered by its latest claim. */
let n = 0;
const claim = () => {
  n++;
  return fixture.claim();
};
const ORG = "org_claim_releases";
let db: Database;

/** The fault: `loseNextAnswer` fails the next statement after it ran; `down` refuses statements before they are sent. */
const fault = { loseNextAnswer: false, down: false };
const connectionLost = () => Object.assign(new Error("Connection terminated unexpectedly"), { code: "ECONNRESET" });
const faultPlugin: KyselyPlugin = {
  transformQuery({ node }) {
    if (fault.down) throw connectionLost();
    return node;
  },
  async transformResult({ result }) {
    if (!fault.loseNextAnswer) return result;
    fault.loseNextAnswer = false;
    fault.down = true;
    throw connectionLost();
  },
};
let faulty: Database["kysely"];

beforeAll(() => {
  db = fixture.db;
  faulty = db.kysely.withPlugin(faultPlugin);
});

const options = (c: IdempotencyClaim, releases: ClaimReleaser, kysely = faulty) => ({
  db: kysely,
  claim: c,
  ttlHours: 1,
  lockSeconds: 60,
  renderError: (e: ServiceError) => ({ contentType: "application/json", body: { code: e.code } }),
  claimReleases: releases,
});
const recordOf = async (key: string) =>
  db.kysely.selectFrom("IdempotencyRecord").select(["state", "lockToken"]).where("key", "=", key).executeTakeFirst();
/** The attempt's intent: an organization row (no foreign keys to satisfy). */
const intentExists = async (id: string) =>
  (await db.kysely.selectFrom("Organization").select("id").where("id", "=", id).execute()).length > 0;

async function until(check: () => Promise<boolean>, timeoutMs: number): Promise<number> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > timeoutMs) throw new Error(`not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
  return Date.now() - started;
}

/** A two-transaction write: its intent (an organization row), then a provider call that counts itself. */
function providerWrite(intentId: string, calls: { n: number }, onFirstCommit?: () => void) {
  return async (uow: UnitOfWork) => {
    uow.insertLater("Organization", { id: intentId });
    onFirstCommit?.();
    return afterProviderCall({
      call: async () => {
        calls.n++;
        return "ok";
      },
      onResult: async () => ({ status: 201, body: { intentId } }),
      onFailure: async (uow2) => uow2.deferLater((q) => q.deleteFrom("Organization").where("id", "=", intentId)),
    });
  };
}

describe("a claim whose request could not release it", () => {
  it("the first commit landed unheard and the database stays down: released with its intent once it answers again", async () => {
    const releases = new ClaimReleases(faulty);
    const c = claim();
    const intent = `org_cr_intent_${n}`;
    const calls = { n: 0 };
    const error = await runUnitOfWork(
      options(c, releases),
      providerWrite(intent, calls, () => {
        fault.loseNextAnswer = true;
      }),
    ).catch((e: unknown) => e);
    try {
      expect(toServiceError(error).error.status).toBe(503);
      // The commit landed: the intent and the in-progress claim stand; the provider was never called.
      expect(calls.n).toBe(0);
      expect(await intentExists(intent)).toBe(true);
      expect((await recordOf(c.key))?.state).toBe("in_progress");
      // Down: the release is tried and fails, and keeps being tried.
      await new Promise((r) => setTimeout(r, 3 * MAX_BACKOFF_MS));
      expect(releases.size).toBe(1);
      expect(await recordOf(c.key)).toBeDefined();
    } finally {
      fault.down = false;
    }
    // Healed: within one backoff (and the try itself) the claim and the intent are gone.
    const took = await until(async () => (await recordOf(c.key)) === undefined, 2_000);
    expect(took).toBeLessThan(MAX_BACKOFF_MS + 500);
    expect(await intentExists(intent)).toBe(false);
    expect(releases.size).toBe(0);
    // The same key executes now, once, long before its 60 s lease would have ended.
    const sent = await runUnitOfWork(options(c, releases), providerWrite(intent, calls));
    expect(sent).toMatchObject({ status: 201, replayed: false });
    expect(calls.n).toBe(1);
    expect(await intentExists(intent)).toBe(true);
    expect((await recordOf(c.key))?.state).toBe("completed");
    await releases.close();
  });

  it("the second transaction fails and the release with it (the database is down): released once it answers", async () => {
    const releases = new ClaimReleases(faulty);
    const c = claim();
    let calls = 0;
    const write = async (uow: UnitOfWork) => {
      uow.insertLater("Organization", { id: `org_cr_second_${n}_${calls}` });
      return afterProviderCall({
        call: async () => ++calls,
        onResult: async (_uow2: UnitOfWork, call: number) => {
          if (call === 1) {
            fault.down = true;
            throw connectionLost();
          }
          return { status: 201, body: { call } };
        },
      });
    };
    const error = await runUnitOfWork(options(c, releases), write).catch((e: unknown) => e);
    try {
      expect(toServiceError(error).error.status).toBe(503);
      expect(calls).toBe(1);
      await new Promise((r) => setTimeout(r, 2 * MAX_BACKOFF_MS));
      expect(releases.size).toBe(1);
      expect((await recordOf(c.key))?.state).toBe("in_progress");
    } finally {
      fault.down = false;
    }
    await until(async () => (await recordOf(c.key)) === undefined, MAX_BACKOFF_MS + 500);
    // Released, not compensated: the provider was called (what it did is the reconciler's to find, issue 26 item 3).
    const sent = await runUnitOfWork(options(c, releases), write);
    expect(sent).toMatchObject({ status: 201, replayed: false });
    await releases.close();
  });

  it("a claim that is no longer the request's (another lock token stands) is left alone, its intent too", async () => {
    const releases = new ClaimReleases(db.kysely);
    const c = claim();
    const intent = `org_cr_kept_${n}`;
    await runUnitOfWork(options(c, releases, db.kysely), providerWrite(intent, { n: 0 }));
    const record = await db.kysely.selectFrom("IdempotencyRecord").select("id").where("key", "=", c.key).executeTakeFirstOrThrow();
    let compensated = false;
    releases.add({
      recordId: record.id,
      lockToken: "not-this-one",
      compensate: async () => {
        compensated = true;
      },
    });
    await until(async () => releases.size === 0, 2_000);
    expect((await recordOf(c.key))?.state).toBe("completed");
    expect(await intentExists(intent)).toBe(true);
    expect(compensated).toBe(false);
    await releases.close();
  });
});

describe("a retry that meets a stranded claim", () => {
  /** An in-progress claim with a live lease, as a request that answered 503 left it, and its intent. */
  async function strand(c: IdempotencyClaim, intent: string): Promise<StrandedClaim> {
    const now = new Date();
    const stranded = { recordId: `idem_cr_${n}`, lockToken: `token-${n}` };
    await db.kysely.insertInto("Organization").values({ id: intent }).execute();
    await db.kysely
      .insertInto("IdempotencyRecord")
      .values({
        id: stranded.recordId,
        organizationId: ORG,
        apiKeyId: c.apiKeyId,
        method: c.method,
        path: c.path,
        key: c.key,
        fingerprint: c.fingerprint,
        state: "in_progress",
        lockToken: stranded.lockToken,
        lockedUntil: new Date(now.getTime() + 60_000),
        expiresAt: new Date(now.getTime() + 3_600_000),
      })
      .execute();
    return { ...stranded, compensate: async (uow) => uow.deferLater((q) => q.deleteFrom("Organization").where("id", "=", intent)) };
  }

  /** This instance's list, holding `held` and never draining it itself (so only the retry can release it). */
  const holding = (held: StrandedClaim | undefined) => {
    const added: StrandedClaim[] = [];
    return {
      added,
      add: (c: StrandedClaim) => added.push(c),
      takeOver(lockToken: string | null) {
        if (!held || lockToken !== held.lockToken) return undefined;
        const taken = held;
        held = undefined;
        return taken;
      },
    };
  };

  it("on the instance that holds it: taken over at once, its intent undone, and the request executes", async () => {
    const c = claim();
    const stale = `org_cr_stale_${n}`;
    const releases = holding(await strand(c, stale));
    const fresh = `org_cr_fresh_${n}`;
    const calls = { n: 0 };
    const sent = await runUnitOfWork(options(c, releases, db.kysely), providerWrite(fresh, calls));
    expect(sent).toMatchObject({ status: 201, replayed: false });
    expect(calls.n).toBe(1);
    expect(await intentExists(stale)).toBe(false);
    expect(await intentExists(fresh)).toBe(true);
    expect((await recordOf(c.key))?.state).toBe("completed");
    expect(releases.added).toEqual([]);
  });

  it("on another instance: 409 IDEMPOTENCY_IN_PROGRESS while the holder has not released it", async () => {
    const c = claim();
    const stale = `org_cr_other_${n}`;
    await strand(c, stale);
    const calls = { n: 0 };
    const error = await runUnitOfWork(options(c, holding(undefined), db.kysely), providerWrite(`${stale}_x`, calls)).catch(
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ code: "IDEMPOTENCY_IN_PROGRESS" });
    expect(calls.n).toBe(0);
    expect(await intentExists(stale)).toBe(true);
    expect((await recordOf(c.key))?.state).toBe("in_progress");
  });
});
