// The provider interface every adapter (sandbox simulator or live integration) implements, per category.
import { CATEGORY_SCOPE, PROVIDER_CATEGORIES, type ProviderCategory } from "../../sdk/src/protocol/scopes.ts";
import type { ComplianceSubject } from "./capabilities/compliance-subject.ts";
import type { ProviderCapabilities } from "./capabilities/provider-capabilities.ts";

/** The categories and the scope each needs are the SDK's (sdk/src/protocol/scopes.ts), which the partner mock checks. */
export { CATEGORY_SCOPE, PROVIDER_CATEGORIES, type ProviderCategory };

export interface OperationContext {
  /** The connection's config (validated by the adapter's `parseConfig`). */
  config: Record<string, unknown>;
  input: unknown;
  now: Date;
  /** Forwarded to the provider so a retried call does not act twice (providers/invoke passes the invocation id). */
  idempotencyKey?: string;
}

export interface ProviderOperationDef {
  description: string;
  /** `write` operations move value or change state at the provider: they need an Idempotency-Key. */
  kind: "read" | "write";
  /** Four-eyes: the caller must present an approved approval request for exactly this input. */
  requiresApproval: boolean;
  /** JSON Schema of `input` (draft 2020-12). */
  inputSchema: Record<string, unknown>;
  /** Parties, addresses and amounts to screen before executing; undefined → nothing to screen. */
  screen?: (input: never) => Omit<ComplianceSubject, "operation">;
  execute: (ctx: OperationContext) => Promise<unknown>;
}

export interface ProviderAdapter {
  slug: string;
  category: ProviderCategory;
  name: string;
  simulator: boolean;
  /** Operations callable through providers/invoke. */
  operations: Record<string, ProviderOperationDef>;
  /** The category-specific APIs the domain endpoints use (capabilities/provider-capabilities.ts). */
  capabilities?: Partial<ProviderCapabilities>;
  /** Throws ProviderConfigError when a connection's config is unusable. */
  parseConfig(config: unknown): Record<string, unknown>;
}

/** The provider failed to execute (→ 502 PROVIDER_EXECUTION_FAILED). */
export class ProviderExecutionError extends Error {}

/** A connection's configuration is unusable (→ 500 SERVER_MISCONFIGURED). */
export class ProviderConfigError extends Error {}
