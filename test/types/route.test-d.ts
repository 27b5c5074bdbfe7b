// Type-level tests of the typed route table (server/routes/route.ts): `npm test` type-checks this file (vitest
// typecheck). Each @ts-expect-error line must fail to compile; if one compiles, the route table lost a guarantee.
import { describe, expectTypeOf, it } from "vitest";
import type { AuthContext } from "../../server/context.ts";
import type { components } from "../../server/generated/openapi.ts";
import { type RouteContext, route } from "../../server/routes/route.ts";
import type { OperationOutcome, QueryParams, RequestBody } from "../../server/spec/operation-types.ts";

type Schemas = components["schemas"];
declare const wallet: Schemas["Wallet"];
declare const transfer: Schemas["BankTransfer"];

describe("request parts are typed by the operation", () => {
  it("gives the body, path and query the contract declares", () => {
    expectTypeOf<RequestBody<"createBankTransfer">>().toEqualTypeOf<Schemas["CreateBankTransferRequest"]>();
    expectTypeOf<RouteContext<"getWallet">["path"]>().toEqualTypeOf<{ id: string }>();
    expectTypeOf<QueryParams<"listWallets">>().toHaveProperty("limit");
    expectTypeOf<RouteContext<"getWallet">["auth"]>().toEqualTypeOf<AuthContext>();
    expectTypeOf<RequestBody<"getWallet">>().toEqualTypeOf<unknown>();
  });

  it("refuses a field the contract lacks", () => {
    route("createBankTransfer", ({ body }) => {
      // @ts-expect-error: CreateBankTransferRequest has no `iban` at the top level
      void body.iban;
      throw new Error("types only");
    });
    route("getWallet", ({ path }) => {
      // @ts-expect-error: getWallet's path has only `id`
      void path.walletId;
      throw new Error("types only");
    });
    route("listWallets", ({ query }) => {
      // @ts-expect-error: listWallets has no `cursor` query parameter
      void query.cursor;
      // integer query parameters arrive as numbers
      expectTypeOf(query.limit).toEqualTypeOf<number | undefined>();
      throw new Error("types only");
    });
  });
});

describe("answers are typed by the operation", () => {
  it("accepts a declared status with its body", () => {
    route("getWallet", () => ({ status: 200, body: wallet }));
    route("createBankTransfer", ({ respond }) => respond(async () => ({ status: 201, body: transfer })));
  });

  it("refuses an undeclared status", () => {
    // @ts-expect-error: getWallet declares no 201
    route("getWallet", () => ({ status: 201, body: wallet }));
    // @ts-expect-error: createBankTransfer declares no 200
    route("createBankTransfer", ({ respond }) => respond(async () => ({ status: 200, body: transfer })));
  });

  it("refuses a body of another shape", () => {
    // @ts-expect-error: a BankTransfer is not a Wallet
    route("getWallet", () => ({ status: 200, body: transfer }));
    // @ts-expect-error: a Wallet needs its address, chain, balance and creation time
    route("getWallet", () => ({ status: 200, body: { id: "wal_1", label: null } }));
    // @ts-expect-error: the unit of work's answer is typed by the same operation
    route("createBankTransfer", ({ respond }) => respond(async () => ({ status: 201, body: wallet })));
  });

  it("types outcomes for domain functions that decide a write's answer", () => {
    expectTypeOf<{ status: 201; body: Schemas["BankTransfer"] }>().toMatchTypeOf<OperationOutcome<"createBankTransfer">>();
    expectTypeOf<{ status: 404; body: Schemas["BankTransfer"] }>().not.toMatchTypeOf<OperationOutcome<"createBankTransfer">>();
  });
});
