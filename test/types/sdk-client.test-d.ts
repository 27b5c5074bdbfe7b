// Type-level tests of the SDK client's surface: the documented method signatures generated from the spec
// (sdk/src/generated/namespaces.ts) are exactly the SDK's `Method<operationId>` for every entry of the operation map;
// `withResponse()` and `toArray()` are typed; the error classes narrow. `npm test` type-checks this file; every line
// marked with the expect-error directive must fail to compile.
import { describe, expectTypeOf, it } from "vitest";
import {
  type ApiPromise,
  Coinplane,
  type CoinplaneApiError,
  type CoinplaneConnectionError,
  CoinplaneNotFoundError,
  type CoinplaneRateLimitError,
  type components,
  type MethodArgs,
  type MethodResult,
  type Namespaces,
  NotFoundError,
  type OperationMap,
  type PagePromise,
  type Schemas,
  type SdkOperationId,
  type WithResponse,
} from "../../sdk/src/index.ts";

type Generated<K extends SdkOperationId> = OperationMap[K] extends readonly [infer N extends keyof Namespaces, infer M]
  ? M extends keyof Namespaces[N]
    ? Namespaces[N][M]
    : never
  : never;
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Params<F> = F extends (...args: infer A) => unknown ? A : never;
type Result<F> = F extends (...args: never[]) => infer R ? R : never;
/** The operationIds whose generated signature differs from `Method<K>` (parameters or result). */
type Mismatched = {
  [K in SdkOperationId]: Equal<Params<Generated<K>>, MethodArgs<K>> extends true
    ? Equal<Result<Generated<K>>, MethodResult<K>> extends true
      ? never
      : K
    : K;
}[SdkOperationId];

const coinplane = new Coinplane({ apiKey: "cp_sandbox_x", baseUrl: "http://localhost" });

describe("generated method signatures", () => {
  it("are the SDK's Method<operationId> for every mapped operation", () => {
    expectTypeOf<Mismatched>().toEqualTypeOf<never>();
    expectTypeOf<Generated<"fundCard">>().not.toBeNever();
  });

  it("name path parameters and keep required inputs required", () => {
    expectTypeOf(coinplane.cards.fund).parameter(0).toEqualTypeOf<string>();
    // @ts-expect-error: the body of a required-body write cannot be left out
    void coinplane.cards.fund("card_1");
    // @ts-expect-error: a read without path parameters takes no id
    void coinplane.balances.retrieve("x", {});
  });
});

describe("withResponse()", () => {
  it("gives the typed data with the response facts, for plain and list methods", () => {
    expectTypeOf(coinplane.wallets.create({ chain: "base" })).toEqualTypeOf<ApiPromise<components["schemas"]["Wallet"]>>();
    expectTypeOf(coinplane.wallets.create({ chain: "base" }).withResponse()).resolves.toEqualTypeOf<WithResponse<Schemas.Wallet>>();
    const page = coinplane.payments.list({ limit: 2 });
    expectTypeOf(page.withResponse()).resolves.toHaveProperty("data").toEqualTypeOf<Schemas.PaymentList>();
    expectTypeOf(page.withResponse()).resolves.toHaveProperty("requestId").toEqualTypeOf<string | undefined>();
    expectTypeOf(page.withResponse()).resolves.toHaveProperty("idempotentReplayed").toEqualTypeOf<boolean>();
    expectTypeOf(page).toEqualTypeOf<PagePromise<Schemas.PaymentList, Schemas.Payment>>();
    expectTypeOf(page.toArray({ limit: 5 })).resolves.toEqualTypeOf<Schemas.Payment[]>();
    // @ts-expect-error: toArray exists on list methods only
    void coinplane.wallets.retrieve("wal_1").toArray();
  });
});

describe("errors", () => {
  it("narrow to the HTTP facts of an API error, none for a connection error", () => {
    expectTypeOf<CoinplaneApiError["status"]>().toEqualTypeOf<number>();
    expectTypeOf<CoinplaneApiError["headers"]>().toEqualTypeOf<Headers>();
    expectTypeOf<CoinplaneConnectionError["status"]>().toEqualTypeOf<undefined>();
    expectTypeOf<CoinplaneRateLimitError["retryAfter"]>().toEqualTypeOf<number | undefined>();
    expectTypeOf<CoinplaneNotFoundError>().toExtend<CoinplaneApiError>();
    // The deprecated name is the same class, as a value and as a type.
    expectTypeOf(NotFoundError).toEqualTypeOf(CoinplaneNotFoundError);
    expectTypeOf<NotFoundError>().toEqualTypeOf<CoinplaneNotFoundError>();
  });
});
