// The mock's API keys. Like the API, the mock answers 401 to a request without a key or with a key it does not know,
// 403 to a production key on the sandbox API (/api/v1) and to a key without the operation's scope. Three documented
// test keys (sdk/README.md, docs/getting-started.md) cover those paths; `apiKeys` adds more.

import type { MockSpendingLimit } from "./spending-limits.ts";

export interface MockApiKey {
  environment: "sandbox" | "production";
  /** Every key of the mock belongs to one organization; a body's `organizationId` must be it (else 403). */
  organizationId: string;
  /** `<resource>:<read|write>`; write implies read. */
  scopes: readonly string[];
  /** Spending limits per asset or currency (./spending-limits.ts): counted on money-moving calls as the server does. */
  spendingLimits?: readonly MockSpendingLimit[];
}

/** The organization of the test keys: the one the spec's examples name. */
export const MOCK_ORGANIZATION_ID = "org_acme";

/** A well-formed key (`cp_<environment>_` and 43 letters or digits) with a readable name. */
const testKey = (environment: string, name: string) => `cp_${environment}_${name.padEnd(43, "0")}`;

/** The documented test keys. */
export const mockApiKeys = {
  /** Sandbox, every scope. */
  sandbox: testKey("sandbox", "mockAllScopes"),
  /** Sandbox, every `:read` scope and no `:write` one: writes answer 403. */
  sandboxReadOnly: testKey("sandbox", "mockReadOnly"),
  /** Production, every scope: the sandbox API (/api/v1) answers 403. */
  production: testKey("production", "mockAllScopes"),
} as const;

/** The test keys with their environment and scopes (`scopes`: every scope the spec knows). */
export function defaultMockKeys(scopes: readonly string[]): Record<string, MockApiKey> {
  const organizationId = MOCK_ORGANIZATION_ID;
  return {
    [mockApiKeys.sandbox]: { environment: "sandbox", organizationId, scopes },
    [mockApiKeys.sandboxReadOnly]: { environment: "sandbox", organizationId, scopes: scopes.filter((s) => s.endsWith(":read")) },
    [mockApiKeys.production]: { environment: "production", organizationId, scopes },
  };
}
