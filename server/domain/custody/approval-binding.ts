// Whether an approval request named in a custody body is the one that guards this wallet or transfer: the one the
// resource recorded, bound to the resource's id and to the custody action. Pure, so it can be checked without a database.

/** null when the approval guards `resource` for `action`; otherwise the message of the 409 CUSTODY_STATE_CONFLICT. */
export function approvalBindingConflict(
  approval: { id: string; resourceId: string | null; action: string },
  resource: { id: string; approvalRequestId: string },
  action: string,
): string | null {
  if (approval.id === resource.approvalRequestId && approval.resourceId === resource.id && approval.action === action) return null;
  return `Approval request ${approval.id} belongs to another ${action.split(".")[1]?.replace(/s$/, "")} or operation`;
}
