// Tenant scoping (server/db/owned-by.ts): the SQL it adds, that a missing row is 404, and that only tables carrying
// organizationId and environment accept it. Compiled by Kysely with no database (DummyDriver answers no rows).
import { DummyDriver, Kysely, type LogEvent, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler } from "kysely";
import { describe, expect, it } from "vitest";
import type { DB } from "../../server/db/kysely.ts";
import { findOwned, ownedBy, ownedByOrganization } from "../../server/db/owned-by.ts";
import { ServiceError } from "../../server/errors/service-error.ts";

const owner = { organizationId: "org_1", environment: "sandbox" };

function offlineDb() {
  const statements: Array<{ sql: string; parameters: readonly unknown[] }> = [];
  const db = new Kysely<DB>({
    dialect: {
      createAdapter: () => new PostgresAdapter(),
      createDriver: () => new DummyDriver(),
      createIntrospector: (k) => new PostgresIntrospector(k),
      createQueryCompiler: () => new PostgresQueryCompiler(),
    },
    log: (event: LogEvent) => {
      statements.push({ sql: event.query.sql, parameters: event.query.parameters });
    },
  });
  return { db, statements };
}

describe("ownedBy", () => {
  it.each([
    {
      name: "after other predicates",
      build: (db: Kysely<DB>) => db.selectFrom("Payment").selectAll().where("id", "=", "pay_1").where(ownedBy(owner)),
      sql: 'select * from "Payment" where "id" = $1 and ("organizationId" = $2 and "environment" = $3)',
      parameters: ["pay_1", "org_1", "sandbox"],
    },
    {
      name: "alone, on a count",
      build: (db: Kysely<DB>) =>
        db
          .selectFrom("Wallet")
          .where(ownedBy(owner))
          .select((eb) => eb.fn.countAll().as("count")),
      sql: 'select count(*) as "count" from "Wallet" where ("organizationId" = $1 and "environment" = $2)',
      parameters: ["org_1", "sandbox"],
    },
    {
      name: "on an aliased table",
      build: (db: Kysely<DB>) => db.selectFrom("Wallet as w").select("w.id").where(ownedBy(owner, "w")),
      sql: 'select "w"."id" from "Wallet" as "w" where ("w"."organizationId" = $1 and "w"."environment" = $2)',
      parameters: ["org_1", "sandbox"],
    },
    {
      name: "on the owned table of a join",
      build: (db: Kysely<DB>) =>
        db.selectFrom("WalletAsset as a").innerJoin("Wallet as w", "w.id", "a.walletId").select("a.asset").where(ownedBy(owner, "w")),
      sql: 'select "a"."asset" from "WalletAsset" as "a" inner join "Wallet" as "w" on "w"."id" = "a"."walletId" where ("w"."organizationId" = $1 and "w"."environment" = $2)',
      parameters: ["org_1", "sandbox"],
    },
  ])("adds both tenant columns $name", ({ build, sql, parameters }) => {
    const compiled = build(offlineDb().db).compile();
    expect(compiled.sql).toBe(sql);
    expect(compiled.parameters).toEqual(parameters);
  });
});

describe("ownedByOrganization", () => {
  it.each([
    {
      name: "a members' table",
      build: (db: Kysely<DB>) => db.selectFrom("Member").select("id").where(ownedByOrganization("org_1")),
      sql: 'select "id" from "Member" where "organizationId" = $1',
    },
    {
      name: "an aliased table, across its environments",
      build: (db: Kysely<DB>) => db.selectFrom("ApiKey as k").select("k.id").where(ownedByOrganization("org_1", "k")),
      sql: 'select "k"."id" from "ApiKey" as "k" where ("k"."organizationId" = $1)',
    },
  ])("filters on the organization alone: $name", ({ build, sql }) => {
    const compiled = build(offlineDb().db).compile();
    expect(compiled.sql).toBe(sql);
    expect(compiled.parameters).toEqual(["org_1"]);
  });
});

describe("findOwned", () => {
  it("reads the row by id within the owner in one statement, and answers 404 `<what> not found` when there is none", async () => {
    const { db, statements } = offlineDb();
    const error = await findOwned(db, "BankTransfer", "bt_1", owner, "Bank transfer").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServiceError);
    expect(error).toMatchObject({ code: "NOT_FOUND", message: "Bank transfer not found" });
    expect(statements).toEqual([
      {
        sql: 'select * from "BankTransfer" where "id" = $1 and ("organizationId" = $2 and "environment" = $3)',
        parameters: ["bt_1", "org_1", "sandbox"],
      },
    ]);
  });

  it("accepts only tables (and aliases) that carry the owner's columns", () => {
    const { db } = offlineDb();
    // @ts-expect-error: Organization has no organizationId/environment columns
    void (() => findOwned(db, "Organization", "org_1", owner, "Organization"));
    // @ts-expect-error: WalletAsset rows are owned through their wallet, not directly
    void (() => db.selectFrom("WalletAsset").selectAll().where(ownedBy(owner)));
    // @ts-expect-error: Member rows have no environment; they are ownedByOrganization
    void (() => db.selectFrom("Member").selectAll().where(ownedBy(owner)));
    // @ts-expect-error: the alias "a" stands for WalletAsset, which is not owned
    void (() => db.selectFrom("WalletAsset as a").innerJoin("Wallet as w", "w.id", "a.walletId").selectAll("a").where(ownedBy(owner, "a")));
    // @ts-expect-error: no table of the query is aliased "x"
    void (() => db.selectFrom("Wallet as w").selectAll().where(ownedBy(owner, "x")));
    // @ts-expect-error: Organization has no organizationId column
    void (() => db.selectFrom("Organization").selectAll().where(ownedByOrganization("org_1")));
  });
});
