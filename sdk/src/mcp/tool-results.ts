// What a tool call answers: the body as structuredContent with a one-line summary, or `isError: true` with the
// refusal whole (status, code, title, detail, field errors, Retry-After) — never cut, never redacted.
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";

export interface HttpAnswer {
  status: number;
  body: unknown;
  retryAfter: string | null;
  requestId: string | null;
}

const RETRYABLE = new Set([429, 503]);

export function successResult(toolName: string, answer: HttpAnswer, hasOutputSchema: boolean): CallToolResult {
  const body = answer.body;
  const record = body && typeof body === "object" && !Array.isArray(body) ? (body as Record<string, unknown>) : null;
  const id = record ? Object.entries(record).find(([k, v]) => (k === "id" || /Id$/.test(k)) && typeof v === "string")?.[1] : undefined;
  const status = record && typeof record.status === "string" ? record.status : undefined;
  const items =
    record && Array.isArray(record.data)
      ? `${record.data.length} item(s)${record.hasMore === true ? ", more with the next cursor" : ""}`
      : undefined;
  const approval = record?.approval as { url?: string; status?: string } | undefined;
  const parts = [`${toolName}: HTTP ${answer.status}`, id && `id ${id}`, status && `status ${status}`, items];
  if (approval?.url) parts.push(`approval ${approval.status ?? "pending"}: a member must approve it at ${approval.url}`);
  const text = parts.filter(Boolean).join("; ");
  if (record && hasOutputSchema) return { content: [{ type: "text", text }], structuredContent: record };
  if (record || body === undefined || body === null)
    return { content: [{ type: "text", text }], ...(record ? { structuredContent: record } : {}) };
  return { content: [{ type: "text", text: `${text}\n${JSON.stringify(body)}` }] };
}

export function errorResult(answer: HttpAnswer, idempotencyKey: string | undefined): CallToolResult {
  const problem: Record<string, unknown> = {
    status: answer.status,
    ...(answer.body && typeof answer.body === "object" ? (answer.body as Record<string, unknown>) : { body: answer.body }),
  };
  if (answer.retryAfter !== null) problem.retryAfterSeconds = Number(answer.retryAfter);
  if (answer.requestId && !problem.requestId) problem.requestId = answer.requestId;
  const code = typeof problem.code === "string" ? problem.code : "";
  const title = (problem.title ?? problem.error ?? "") as string;
  const detail = typeof problem.detail === "string" ? ` — ${problem.detail}` : "";
  const lines = [`HTTP ${answer.status} ${code}: ${title}${detail}`.trim()];
  if (RETRYABLE.has(answer.status) || code === "IDEMPOTENCY_IN_PROGRESS") {
    const after = answer.retryAfter !== null ? ` after ${answer.retryAfter} s` : "";
    lines.push(
      `Retryable: call again${after}${idempotencyKey ? ` with the same idempotency_key (${idempotencyKey})` : " with the same arguments"}; nothing was executed twice.`,
    );
  } else {
    lines.push("Not retryable unchanged: fix what the problem names first.");
  }
  lines.push(JSON.stringify(problem));
  return { isError: true, content: [{ type: "text", text: lines.join("\n") }] };
}

export function toolError(message: string): CallToolResult {
  return { isError: true, content: [{ type: "text", text: message }] };
}
