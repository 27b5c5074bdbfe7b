// isDatabaseUnavailable: the shapes a lost or unreachable PostgreSQL takes, seen through pg, Prisma and its adapter.
import { describe, expect, it } from "vitest";
import { isDatabaseFailure, isDatabaseUnavailable } from "../../server/errors/classify-failure.ts";

describe("isDatabaseUnavailable", () => {
  it.each([
    ["a refused connection", Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" })],
    ["pg's dropped connection", new Error("Connection terminated unexpectedly")],
    ["SQLSTATE 57P01 (admin shutdown)", Object.assign(new Error("terminating connection"), { code: "57P01" })],
    [
      // What a pooled connection found dead looks like through Prisma 6 + @prisma/adapter-pg (seen in test/system).
      "Prisma P1017 with the adapter's ConnectionClosed",
      Object.assign(new Error("Server has closed the connection."), {
        code: "P1017",
        meta: { modelName: "ApiKey", driverAdapterError: { name: "DriverAdapterError", cause: { kind: "ConnectionClosed" } } },
      }),
    ],
    ["Prisma P1001 (cannot reach the server)", Object.assign(new Error("Can't reach"), { code: "P1001" })],
    ["a DriverAdapterError cause of kind DatabaseNotReachable", new Error("failed", { cause: { kind: "DatabaseNotReachable" } })],
  ])("%s → unavailable", (_name, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it.each([
    ["a unique violation", Object.assign(new Error("Unique constraint failed"), { code: "P2002" })],
    ["a missing table (a bug, not an outage)", Object.assign(new Error("relation does not exist"), { code: "42P01" })],
    ["a plain bug", new TypeError("x is undefined")],
  ])("%s → not unavailable", (_name, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
  });
});

// isDatabaseFailure: what a payments write answers as 503 STORAGE_UNAVAILABLE (server/routes/respond-or-503.ts).
describe("isDatabaseFailure", () => {
  const refused = (code: string) => Object.assign(new Error("refused"), { code, severity: "ERROR" });
  it.each([
    ["a statement the database refused (check violation)", refused("23514")],
    ["a refused statement wrapped once", new Error("insert failed", { cause: refused("22P02") })],
    ["an unreachable database", Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" })],
  ])("%s → a database failure", (_name, error) => {
    expect(isDatabaseFailure(error)).toBe(true);
  });

  it.each([
    ["a bug", new TypeError("x is undefined")],
    ["a SQLSTATE-looking code without the driver's severity", Object.assign(new Error("x"), { code: "23514" })],
    ["a code that is not a SQLSTATE", Object.assign(new Error("x"), { code: "card_declined", severity: "ERROR" })],
  ])("%s → not a database failure", (_name, error) => {
    expect(isDatabaseFailure(error)).toBe(false);
  });
});
