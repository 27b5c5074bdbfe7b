// Which tools a key sees: its scopes (write implies read) and environment decide, then the toolsets asked for.
import type { McpToolDefinition } from "./tool-definition.ts";

export interface KeyAccess {
  environment: "sandbox" | "production";
  /** The key's scopes; undefined when not known (the stdio entry point without COINPLANE_SCOPES): every tool is listed
   * and the API refuses what the key may not do (403 FORBIDDEN, as a tool error). */
  scopes?: readonly string[];
}

export function grants(scopes: readonly string[], needed: string): boolean {
  if (scopes.includes(needed)) return true;
  const [resource, level] = needed.split(":");
  return level === "read" && scopes.includes(`${resource}:write`);
}

export function allowedFor(tool: McpToolDefinition, access: KeyAccess): boolean {
  if (tool.sandboxOnly && access.environment !== "sandbox") return false;
  if (!access.scopes || tool.scopes.length === 0) return true;
  const scopes = access.scopes;
  return tool.scopes.some((s) => grants(scopes, s));
}

/** `toolsets`: contract tags as slugs (`payments`, `bank-transfers`, `custody`, …); empty or undefined = every toolset. */
export function visibleTools(tools: readonly McpToolDefinition[], access: KeyAccess, toolsets?: readonly string[]): McpToolDefinition[] {
  const wanted = toolsets && toolsets.length > 0 ? new Set(toolsets) : null;
  return tools.filter((t) => allowedFor(t, access) && (!wanted || wanted.has(t.toolset)));
}

export const environmentOfKey = (apiKey: string): "sandbox" | "production" | undefined =>
  (/^cp_(sandbox|production)_/.exec(apiKey)?.[1] as "sandbox" | "production" | undefined) ?? undefined;
