// The one provider-call path: every category's failure, and a provider that does not answer in time, become the problem
// each endpoint documents (codes, statuses, messages and Retry-After as the black-box tests assert them).
import { describe, expect, it } from "vitest";
import { classifyProviderFailure } from "../../../server/domain/providers/classify-provider-failure.ts";
import { callProvider, type ProviderCall } from "../../../server/domain/providers/provider-call.ts";
import { ServiceError } from "../../../server/errors/service-error.ts";
import { IoTimeoutError } from "../../../server/lib/with-io-timeout.ts";
import { CardIssuerError } from "../../../server/providers/capabilities/card-issuing.ts";
import { ProviderUnavailableError } from "../../../server/providers/capabilities/provider-unavailable.ts";
import { ReserveSourceUnavailable } from "../../../server/providers/capabilities/treasury.ts";
import { ProviderExecutionError } from "../../../server/providers/provider-adapter.ts";

const failing = (error: unknown) => () => Promise.reject(error);
/** Resolves never: only the timeout ends the call. */
const silent = () => new Promise<never>(() => {});

async function problemOf(spec: ProviderCall, call: () => Promise<unknown>) {
  const error = await callProvider(spec, call).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ServiceError);
  const { code, status, message, retryAfterSeconds } = error as ServiceError;
  return { code, status, message, retryAfterSeconds };
}

describe("callProvider maps each category's provider failures", () => {
  const cases: Array<{ name: string; spec: ProviderCall; error: Error; expected: Awaited<ReturnType<typeof problemOf>> }> = [
    {
      name: "custody: a failure the provider answered",
      spec: { provider: "custody", what: "create the wallet" },
      error: new ProviderExecutionError("vault limit"),
      expected: {
        code: "PROVIDER_EXECUTION_FAILED",
        status: 502,
        message: "The custody provider failed to create the wallet: vault limit",
        retryAfterSeconds: undefined,
      },
    },
    {
      name: "custody: unreachable → 503, retry",
      spec: { provider: "custody", what: "submit the transfer" },
      error: new ProviderUnavailableError("books unreadable"),
      expected: {
        code: "SOURCE_NOT_AVAILABLE",
        status: 503,
        message: "The custody provider could not be reached to submit the transfer; nothing changed, retry",
        retryAfterSeconds: 5,
      },
    },
    {
      name: "custody balances (no 503 documented): unreachable → 502, same words, no Retry-After",
      spec: { provider: "custody", what: "report the balances", unreachable: "PROVIDER_EXECUTION_FAILED" },
      error: new ProviderUnavailableError("books unreadable"),
      expected: {
        code: "PROVIDER_EXECUTION_FAILED",
        status: 502,
        message: "The custody provider could not be reached to report the balances; nothing changed, retry",
        retryAfterSeconds: undefined,
      },
    },
    {
      name: "bank transfer: a failure",
      spec: { provider: "bank_transfer", what: "create the transfer" },
      error: new ProviderExecutionError("simulated bank timeout"),
      expected: {
        code: "PROVIDER_EXECUTION_FAILED",
        status: 502,
        message: "The bank transfer provider failed to create the transfer: simulated bank timeout",
        retryAfterSeconds: undefined,
      },
    },
    {
      name: "bank transfer: unreachable is worded and answered as a failure",
      spec: { provider: "bank_transfer", what: "cancel the transfer" },
      error: new ProviderUnavailableError("no route to bank"),
      expected: {
        code: "PROVIDER_EXECUTION_FAILED",
        status: 502,
        message: "The bank transfer provider failed to cancel the transfer: no route to bank",
        retryAfterSeconds: undefined,
      },
    },
    {
      name: "card issuer: rate limited keeps its code and message, Retry-After 1",
      spec: { provider: "card_issuance" },
      error: new CardIssuerError("PROVIDER_RATE_LIMITED", "slow down (simulated)"),
      expected: { code: "PROVIDER_RATE_LIMITED", status: 429, message: "slow down (simulated)", retryAfterSeconds: 1 },
    },
    {
      name: "card issuer: a refusal keeps its code and message",
      spec: { provider: "card_issuance" },
      error: new CardIssuerError("CARD_REQUEST_REJECTED", "rejected (simulated)"),
      expected: { code: "CARD_REQUEST_REJECTED", status: 422, message: "rejected (simulated)", retryAfterSeconds: undefined },
    },
    {
      name: "card issuer: a failure",
      spec: { provider: "card_issuance" },
      error: new ProviderExecutionError("simulated card issuer failure"),
      expected: {
        code: "PROVIDER_EXECUTION_FAILED",
        status: 502,
        message: "The card issuer failed: simulated card issuer failure",
        retryAfterSeconds: undefined,
      },
    },
    {
      name: "providers/invoke: a failure",
      spec: { provider: "invoked" },
      error: new ProviderExecutionError("simulated provider failure (amount 13.13)"),
      expected: {
        code: "PROVIDER_EXECUTION_FAILED",
        status: 502,
        message: "The provider failed: simulated provider failure (amount 13.13)",
        retryAfterSeconds: undefined,
      },
    },
    {
      name: "reserve source: unreachable → 503 with the source's reason",
      spec: { provider: "reserve_source" },
      error: new ReserveSourceUnavailable("attestation feed down"),
      expected: {
        code: "SOURCE_NOT_AVAILABLE",
        status: 503,
        message: "The reserve source could not be reached: attestation feed down",
        retryAfterSeconds: 5,
      },
    },
  ];

  it.each(cases)("$name", async ({ spec, error, expected }) => {
    expect(await problemOf(spec, failing(error))).toEqual(expected);
  });
});

describe("callProvider bounds the call in time", () => {
  it.each([
    {
      spec: { provider: "custody", what: "look up the wallet", timeoutMs: 20 } as ProviderCall,
      expected: {
        code: "SOURCE_NOT_AVAILABLE",
        message: "The custody provider could not be reached to look up the wallet; nothing changed, retry",
        retryAfterSeconds: 5,
      },
    },
    {
      spec: { provider: "bank_transfer", what: "report the transfer", timeoutMs: 20 } as ProviderCall,
      expected: {
        code: "PROVIDER_EXECUTION_FAILED",
        message:
          "The bank transfer provider failed to report the transfer: The bank transfer provider (report the transfer) did not answer within 20 ms",
        retryAfterSeconds: undefined,
      },
    },
    {
      spec: { provider: "card_issuance", timeoutMs: 20 } as ProviderCall,
      expected: {
        code: "SOURCE_NOT_AVAILABLE",
        message: "The card issuer could not be reached: The card issuer (call) did not answer within 20 ms",
        retryAfterSeconds: 5,
      },
    },
  ])("a silent $spec.provider provider is answered as unreachable", async ({ spec, expected }) => {
    const { code, message, retryAfterSeconds } = await problemOf(spec, silent);
    expect({ code, message, retryAfterSeconds }).toEqual(expected);
  });

  it("answers the provider's result when it comes in time", async () => {
    await expect(callProvider({ provider: "custody", what: "look up the wallet", timeoutMs: 1_000 }, async () => "vault")).resolves.toBe(
      "vault",
    );
  });
});

describe("callProvider leaves other errors alone", () => {
  it.each([new ServiceError("CUSTODY_STATE_CONFLICT", "already active"), new TypeError("a bug")])(
    "rethrows $name unchanged",
    async (error) => {
      await expect(callProvider({ provider: "custody", what: "create the wallet" }, failing(error))).rejects.toBe(error);
    },
  );
});

describe("classifyProviderFailure", () => {
  it.each([
    { error: new ProviderExecutionError("x"), kind: "failed" },
    { error: new ProviderUnavailableError("x"), kind: "unreachable" },
    { error: new ReserveSourceUnavailable("x"), kind: "unreachable" },
    { error: new IoTimeoutError("x"), kind: "unreachable" },
    { error: new CardIssuerError("CARD_OPERATION_NOT_SUPPORTED", "x"), kind: "refused" },
    { error: new Error("x"), kind: null },
    { error: "not even an error", kind: null },
  ])("$error → $kind", ({ error, kind }) => {
    expect(classifyProviderFailure(error)?.kind ?? null).toBe(kind);
  });
});
