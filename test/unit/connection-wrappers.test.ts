// A wrapper driver's checkout (server/db/connection-wrappers.ts): the connection in its one wrapper, reset for each new
// holder, whether the driver below applies the wrapping inside its own checkout (acquireMapped) or only offers
// acquireConnection (then the wrapping follows in a `then`).
import type { DatabaseConnection, Driver } from "kysely";
import { describe, expect, it } from "vitest";
import { acquireMapped, ConnectionWrappers } from "../../server/db/connection-wrappers.ts";

const connection = { executeQuery: () => Promise.reject(new Error("not sent")) } as unknown as DatabaseConnection;
const plainDriver = { acquireConnection: () => Promise.resolve(connection) } as unknown as Driver;
const mappedCalls: string[] = [];
const mappingDriver = {
  acquireConnection: () => Promise.reject(new Error("acquireMapped is to be used")),
  acquireMapped: <T>(map: (c: DatabaseConnection) => T) => {
    mappedCalls.push("mapped");
    return Promise.resolve(map(connection));
  },
} as unknown as Driver;

class Holder {
  holders = 0;
  readonly inner: DatabaseConnection;
  constructor(inner: DatabaseConnection) {
    this.inner = inner;
  }
}

describe.each([
  ["a driver with acquireConnection only", plainDriver],
  ["a driver that maps inside its checkout", mappingDriver],
])("wrapped checkout over %s", (_name, driver) => {
  it("hands out one wrapper per connection, reset at each checkout, and maps a layer above's wrapping in", async () => {
    const wrappers = new ConnectionWrappers<Holder & DatabaseConnection>(
      (inner) => new Holder(inner) as Holder & DatabaseConnection,
      (holder) => {
        holder.holders++;
      },
    );
    const first = await wrappers.acquire(driver);
    const second = await wrappers.acquire(driver);
    expect(second).toBe(first);
    expect(first.inner).toBe(connection);
    expect(first.holders).toBe(2);
    const above = await wrappers.acquireThrough(driver, (holder) => ({ above: holder }));
    expect(above.above).toBe(first);
    expect(first.holders).toBe(3);
  });
});

describe("acquireMapped", () => {
  it("uses the driver's own acquireMapped when it has one, and acquireConnection's promise otherwise", async () => {
    mappedCalls.length = 0;
    expect(await acquireMapped(mappingDriver, (c) => c)).toBe(connection);
    expect(mappedCalls).toEqual(["mapped"]);
    expect(await acquireMapped(plainDriver, (c) => [c])).toEqual([connection]);
  });
});
