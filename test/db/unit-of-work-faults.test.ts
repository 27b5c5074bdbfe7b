// The unit of work under infrastructure failures, on both databases: a serialization failure or deadlock runs the
// transaction again (bounded), then answers 503 without storing anything; an unavailable database is never stored and
// leaves the key free; a 500 from a defect is stored alone (the work's rows and the rows kept on error roll back).
import { beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../server/db/open-database.ts";
import { CONFLICT_ATTEMPTS, type IdempotencyClaim, runUnitOfWork } from "../../server/db/unit-of-work/index.ts";
import { classifyFailure } from "../../server/errors/classify-failure.ts";
import { ServiceError } from "../../server/errors/service-error.ts";
import { toServiceError } from "../../server/errors/to-service-error.ts";
import { unitOfWorkFixture } from "../helpers/unit-of-work-fixture.ts";

const fixture = unitOfWorkFixture("uow_faults", 2);
/** How many claims were made: ids of a test's own rows are numbered by its latest claim. */
let n = 0;
const claim = () => {
  n++;
  return fixture.claim();
};
let db: Database;
beforeAll(() => {
  db = fixture.db;
});

const options = (c?: IdempotencyClaim) => ({
  db: db.kysely,
  claim: c,
  ttlHours: 1,
  lockSeconds: 5,
  renderError: (e: ServiceError) => ({ contentType: "application/json", body: { code: e.code } }),
});
const records = async (key: string) =>
  (await db.kysely.selectFrom("IdempotencyRecord").select(["responseStatus"]).where("key", "=", key).execute()).map(
    (r) => r.responseStatus,
  );
const sqlError = (code: string, message = "failed") => Object.assign(new Error(message), { code, severity: "ERROR" });

describe("classifier", () => {
  it.each([
    ["serialization failure", sqlError("40001"), "conflict"],
    ["deadlock", sqlError("40P01"), "conflict"],
    ["statement timeout", sqlError("57014", "canceling statement due to statement timeout"), "unavailable"],
    ["admin shutdown", sqlError("57P01"), "unavailable"],
    ["too many connections", sqlError("53300"), "unavailable"],
    ["pg query_timeout", new Error("Query read timeout"), "unavailable"],
    ["pool acquire timeout", new Error("timeout exceeded when trying to connect"), "unavailable"],
    [
      "a reset wrapped by a card guard",
      new ServiceError("CARD_LEDGER_WRITE_FAILED", "x", { cause: sqlError("ECONNRESET") }),
      "unavailable",
    ],
    ["a unique violation", sqlError("23505"), "unique"],
    ["a bug", new TypeError("x is undefined"), "unknown"],
  ])("%s → %s", (_name, error, kind) => {
    expect(classifyFailure(error)).toBe(kind);
  });

  it("maps to the documented answers: 503 with Retry-After, 409, and 503 wrapping a 500 that hides an outage", () => {
    expect(toServiceError(sqlError("08006")).error).toMatchObject({ status: 503, code: "SERVICE_UNAVAILABLE" });
    expect(toServiceError(sqlError("08006"), { unavailableCodes: ["STORAGE_UNAVAILABLE"] }).error.code).toBe("STORAGE_UNAVAILABLE");
    expect(toServiceError(sqlError("40001")).error.retryAfterSeconds).toBeGreaterThan(0);
    expect(toServiceError(sqlError("23505")).error).toMatchObject({ status: 409, code: "STATE_CONFLICT" });
    const wrapped = new ServiceError("CARD_RECORD_WRITE_FAILED", "x", { cause: new Error("Connection terminated unexpectedly") });
    expect(toServiceError(wrapped)).toMatchObject({ error: { status: 503, code: "SERVICE_UNAVAILABLE" }, unexpected: false });
    expect(toServiceError(new ServiceError("CARD_RECORD_WRITE_FAILED", "x", { cause: new TypeError("bug") })).error.status).toBe(500);
  });
});

describe("runUnitOfWork under failures", () => {
  it("a serialization failure runs the transaction again; the third attempt's answer is stored once", async () => {
    const c = claim();
    let attempts = 0;
    const sent = await runUnitOfWork(options(c), async () => {
      attempts++;
      if (attempts < CONFLICT_ATTEMPTS) throw sqlError("40001");
      return { status: 201, body: { attempts } };
    });
    expect(sent.status).toBe(201);
    expect(attempts).toBe(CONFLICT_ATTEMPTS);
    expect(await records(c.key)).toEqual([201]);
  });

  it("a deadlock on every attempt: bounded attempts, then 503 and nothing stored", async () => {
    const c = claim();
    let attempts = 0;
    const error = await runUnitOfWork(options(c), async () => {
      attempts++;
      throw sqlError("40P01");
    }).catch((e: unknown) => e);
    expect(attempts).toBe(CONFLICT_ATTEMPTS);
    expect(toServiceError(error).error).toMatchObject({ status: 503, code: "SERVICE_UNAVAILABLE" });
    expect(await records(c.key)).toEqual([]);
  });

  it("an unavailable database inside the work is not stored: the same key executes next time", async () => {
    const c = claim();
    await expect(
      runUnitOfWork(options(c), async () => {
        throw new ServiceError("CARD_LEDGER_WRITE_FAILED", "x", { cause: new Error("Connection terminated unexpectedly") });
      }),
    ).rejects.toBeInstanceOf(ServiceError);
    expect(await records(c.key)).toEqual([]);
    const sent = await runUnitOfWork(options(c), async () => ({ status: 200, body: {} }));
    expect(sent).toMatchObject({ status: 200, replayed: false });
  });

  it("a 500 from a defect is stored alone: its writes and the rows kept on error roll back", async () => {
    const c = claim();
    const org = `org_uow_defect_${n}`;
    await expect(
      runUnitOfWork(options(c), async (uow) => {
        await uow.tx.insertInto("Organization").values({ id: org }).execute();
        uow.deferLater((q) => q.insertInto("Organization").values({ id: `${org}_kept` }), { keepOnError: true });
        throw new TypeError("a bug");
      }),
    ).rejects.toBeInstanceOf(TypeError);
    expect(await records(c.key)).toEqual([500]);
    const orgs = await db.kysely.selectFrom("Organization").select("id").where("id", "like", `${org}%`).execute();
    expect(orgs).toEqual([]);
  });
});
