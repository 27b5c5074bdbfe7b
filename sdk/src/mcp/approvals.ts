// People in the loop: a call that creates an approval request answers `approval: {id, status, url}` — the console page
// where a member decides it (an API key never can) — and get_approval_request waits a bounded time for the decision.
import { type ApiConnection, callOperation } from "./call-operation.ts";
import type { McpToolDefinition } from "./tool-definition.ts";
import type { HttpAnswer } from "./tool-results.ts";

export interface ApprovalLink {
  id: string;
  status: string;
  url: string;
}

export function consoleApprovalUrl(consoleBaseUrl: string, environment: string, id: string): string {
  return `${consoleBaseUrl.replace(/\/$/, "")}/console/${environment}/approvals/${encodeURIComponent(id)}`;
}

/** The approval a successful answer created (its `approvalRequestId`), with its state read from the API. */
export async function approvalOf(
  connection: ApiConnection,
  getApproval: McpToolDefinition | undefined,
  body: Record<string, unknown>,
  consoleBaseUrl: string,
  environment: string,
): Promise<ApprovalLink | undefined> {
  const id = body.approvalRequestId;
  if (typeof id !== "string") return undefined;
  let status = "pending";
  if (getApproval) {
    const answer = await callOperation(connection, getApproval, { approvalRequestId: id }).catch(() => undefined);
    const read = answer?.body as { status?: unknown } | undefined;
    if (answer && answer.status === 200 && typeof read?.status === "string") status = read.status;
  }
  return { id, status, url: consoleApprovalUrl(consoleBaseUrl, environment, id) };
}

/** Reads again every `pollMs` while the answer's `field` is one of `while`, for at most `seconds` (≤ the tool's max). */
export async function waitWhile(
  read: () => Promise<HttpAnswer>,
  wait: NonNullable<McpToolDefinition["wait"]>,
  seconds: number,
  pollMs = 1000,
): Promise<HttpAnswer> {
  const deadline = Date.now() + Math.min(Math.max(seconds, 0), wait.maxSeconds) * 1000;
  let answer = await read();
  while (answer.status === 200 && Date.now() + pollMs <= deadline) {
    const value = (answer.body as Record<string, unknown> | undefined)?.[wait.field];
    if (typeof value !== "string" || !wait.while.includes(value)) break;
    await new Promise((resolve) => setTimeout(resolve, pollMs));
    answer = await read();
  }
  return answer;
}
