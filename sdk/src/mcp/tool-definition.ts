// The shape of one generated MCP tool (sdk/src/generated/mcp-tools.ts, written by scripts/mcp-tools/ from openapi/):
// what an MCP client sees (name, description, schemas, annotations) and what the tool layer needs to call the operation.

export type JsonSchema = Record<string, unknown>;

export interface McpToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

export interface McpToolDefinition {
  /** snake_case, ≤ 64 characters: the operation's id, or the name its `x-mcp-shapes` entry gives one body shape. */
  name: string;
  /** The body shape's title for a shape's tool; null elsewhere (the description starts with the summary). */
  title: string | null;
  operationId: string;
  method: "get" | "post" | "put" | "patch" | "delete";
  path: string;
  /** Toolset: the slug of the operation's first contract tag (`bank-transfers`, `custody`, …). */
  toolset: string;
  /** Scopes of which the key needs one (write implies read); empty when any key of the organization may call it. */
  scopes: string[];
  /** `x-sandbox-only`: never listed for a production key. */
  sandboxOnly: boolean;
  pathParams: string[];
  queryParams: string[];
  /** The body's properties as tool arguments; `null` when the operation takes no body. */
  bodyParams: string[] | null;
  bodyRequired: boolean;
  /** The Idempotency-Key header, sent from the `idempotency_key` argument. */
  idempotency: "required" | "optional" | "none";
  /** `x-creates-approval`: a success answers an approval request a member decides in the console. */
  createsApproval: boolean;
  /** `x-mcp-wait`: the tool takes `wait_seconds` and polls while `field` holds one of `while`. */
  wait: { field: string; while: string[]; maxSeconds: number } | null;
  description: string;
  inputSchema: JsonSchema & { type: "object" };
  /** Listed: the success answer's top-level properties by name (null: no body, 204). */
  outputSchema: (JsonSchema & { type: "object" }) | null;
  /** What describe_operation answers: the input with nested shapes and descriptions (null: same as inputSchema), and
   * the output with each property's JSON type. */
  fullInputSchema: (JsonSchema & { type: "object" }) | null;
  fullOutputSchema: (JsonSchema & { type: "object" }) | null;
  annotations: McpToolAnnotations;
}
