// A member's role, mapped to what a session may do. Roles are ordered by what they govern, not nested: an approver
// decides approvals but creates no keys; a developer creates keys but decides nothing.
export type MemberRole = "owner" | "developer" | "approver" | "viewer";

const RESOURCES = ["wallets", "payments", "cards", "compliance", "projects", "analytics", "fx", "webhooks"];
const WRITE = RESOURCES.map((r) => `${r}:write`);
const READ = RESOURCES.map((r) => `${r}:read`);

/** The scopes a session acts with: owners and developers write (keys, webhooks, the composer); the others read. */
export function scopesOfRole(role: MemberRole): string[] {
  return role === "owner" || role === "developer" ? WRITE : READ;
}

export const canManageMembers = (role: MemberRole) => role === "owner";
export const canManageApiKeys = (role: MemberRole) => role === "owner" || role === "developer";
export const canDecideApprovals = (role: MemberRole) => role === "owner" || role === "approver";
export const canReadAuditLog = (role: MemberRole) => role === "owner";
