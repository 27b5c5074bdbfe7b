// API-key scopes as the server checks them (server/middleware/require-scope.ts, providers/invoke) and the partner mock
// checks them too (../mock/engine.ts). Pure (no import), so the SDK package carries it.

/** `<resource>:<read|write>`: `write` implies `read` of the same resource. */
export function hasScope(granted: readonly string[], required: string): boolean {
  if (granted.includes(required)) return true;
  const [resource, level] = required.split(":");
  return level === "read" && granted.includes(`${resource}:write`);
}

/** The provider categories (`ProviderCategory` in the spec). */
export const PROVIDER_CATEGORIES = [
  "bank_transfer",
  "custody",
  "card_issuance",
  "token_issuance",
  "chain_read",
  "compliance_screening",
  "fx",
] as const;
export type ProviderCategory = (typeof PROVIDER_CATEGORIES)[number];

/** The scope an API key needs to use a category on providers/invoke (documented there). */
export const CATEGORY_SCOPE: Record<ProviderCategory, string> = {
  bank_transfer: "payments:write",
  fx: "fx:write",
  custody: "wallets:write",
  token_issuance: "wallets:write",
  chain_read: "wallets:write",
  card_issuance: "cards:write",
  compliance_screening: "compliance:write",
};
