// `x-error-codes`: per error status, the codes one operation answers. The error response components are shared per
// status and surface (openapi/components/responses/), so their examples cover every code of the status; which of them an
// operation answers is this list (docs/design.md "Error responses in the contract"). Everything that asks "which codes
// does this operation document?" — the server's 503 choice, the SDK's error-code union, the mock, the contract tests —
// reads it here.

export type ErrorCodesByStatus = Readonly<Record<string, readonly string[]>>;

/** The operation's `x-error-codes` (status → codes); empty when it declares none. */
export function errorCodesOf(op: Record<string, unknown>): ErrorCodesByStatus {
  const declared = op["x-error-codes"];
  if (declared === undefined) return {};
  if (declared === null || typeof declared !== "object" || Array.isArray(declared))
    throw new Error(`${String(op.operationId)}: x-error-codes must map a status to a list of codes`);
  for (const [status, codes] of Object.entries(declared)) {
    if (!/^[45]\d\d$/.test(status) || !Array.isArray(codes) || codes.some((c) => typeof c !== "string"))
      throw new Error(`${String(op.operationId)}: x-error-codes["${status}"] must be a list of codes of an error status`);
  }
  return declared as ErrorCodesByStatus;
}

/** The codes the operation answers with `status`, or undefined when its `x-error-codes` does not list the status. */
export function errorCodesFor(op: Record<string, unknown>, status: number | string): readonly string[] | undefined {
  return errorCodesOf(op)[String(status)];
}

/** Whether an example of the response for `status` belongs to the operation: its `code` is one the operation lists for
 * the status (an example without a code, or a status the list does not name, is kept). */
export function answersExample(op: Record<string, unknown>, status: number | string, value: unknown): boolean {
  const codes = errorCodesFor(op, status);
  const code = (value as { code?: unknown } | null | undefined)?.code;
  return codes === undefined || typeof code !== "string" || codes.includes(code);
}
