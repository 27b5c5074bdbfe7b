// Per-operation code samples (`x-codeSamples`: a curl command and an SDK call), generated from the spec's own request
// examples when `npm run generate` bundles the spec, so the portal and the served /openapi.json show them.
//
// Samples run verbatim once the one documented setup step has exported its variables (`eval "$(npm run -s
// samples:setup)"`, scripts/samples-setup.ts): `$COINPLANE_URL`, `$KEY`, `$ADMIN_TOKEN`, `$ORG_ID` and the id of one
// resource of each kind (`$WALLET_ID`, `$CARD_ID`, …). An example's ids are replaced by those variables: a path
// parameter by its pattern's prefix (`^card_` → `$CARD_ID`) or the table below, a body value by its id prefix. A body
// value that looks like an id but has no variable fails the generation, so a new example cannot ship a sample that
// only works on the author's machine. `organizationId` is dropped from API bodies (the key decides the organization).
// test/docs/code-samples.test.ts runs every curl sample against a fresh sandbox.
import { operationMap } from "../sdk/src/operation-map.ts";
import { type Doc, deref, type Json, specOperations } from "./sdk-generator/spec.ts";

export interface CodeSample {
  lang: string;
  label: string;
  source: string;
}

/** Id prefix → the variable the setup step exports for a resource of that kind. */
export const ID_VARIABLES: Record<string, string> = {
  wal: "WALLET_ID",
  pay: "PAYMENT_ID",
  cprj: "PROJECT_ID",
  apr: "APPROVAL_ID",
  psr: "SELECTION_RECEIPT_ID",
  bt: "BANK_TRANSFER_ID",
  wfr: "WORKFLOW_RUN_ID",
  cw: "CUSTODY_WALLET_ID",
  ct: "CUSTODY_TRANSFER_ID",
  iss: "ISSUER_ID",
  ir: "ISSUANCE_REQUEST_ID",
  cprg: "PROGRAMME_ID",
  card: "CARD_ID",
  chd: "CARDHOLDER_ID",
  cauth: "AUTHORIZATION_ID",
  we: "ENDPOINT_ID",
  wdl: "DELIVERY_ID",
  evt: "EVENT_ID",
  key: "KEY_ID",
  conn: "CONNECTION_ID",
  mem: "MEMBER_ID",
  cpi: "INVITATION_TOKEN",
};

/** Path parameters whose schema has no id pattern: `<path template> <name>` → variable, or a literal value. */
const PATH_PARAMETERS: Record<string, { variable: string } | { literal: string }> = {
  "/api/v1/wallets/{id} id": { variable: "WALLET_ID" },
  "/api/v1/wallets/{id}/balance id": { variable: "WALLET_ID" },
  "/api/v1/payments/{id} id": { variable: "PAYMENT_ID" },
  "/api/admin/keys/{id} id": { variable: "KEY_ID" },
  "/api/admin/connections/{id} id": { variable: "CONNECTION_ID" },
  "/api/v2/agent/payments/corridor/workflows/{workflowRunId} workflowRunId": { variable: "WORKFLOW_RUN_ID" },
  "/api/metric/{metricId} metricId": { literal: "payments.volume" },
  "/api/admin/organizations/{organizationId}/settings organizationId": { variable: "ORG_ID" },
  "/api/admin/organizations/{organizationId}/member-invitations organizationId": { variable: "ORG_ID" },
};

/** Body fields whose example value stands for a resource of the setup without an id prefix. */
const FIELD_VARIABLES: Record<string, string> = { contractAddress: "CONTRACT_ADDRESS" };

/** Body fields of one operation whose example value stands for a secret of the setup (a code the setup computed). */
const OPERATION_FIELD_VARIABLES: Record<string, Record<string, string>> = {
  confirmTotpEnrollment: { code: "TOTP_CODE" },
  verifySessionSecondFactor: { code: "RECOVERY_CODE" },
};

/** Session operations that need a member in another state than $SESSION's (an owner with a verified second factor). */
const SESSION_VARIABLES: Record<string, string> = {
  beginTotpEnrollment: "SESSION_WITHOUT_FACTOR",
  confirmTotpEnrollment: "SESSION_ENROLLING",
  verifySessionSecondFactor: "SESSION_UNVERIFIED",
};
const sessionVariable = (operationId: string) => SESSION_VARIABLES[operationId] ?? "SESSION";

/** Every variable a sample may use, with what it holds: the list the docs and the setup step must cover. */
export const SAMPLE_VARIABLES: Record<string, string> = {
  COINPLANE_URL: "the server (default http://localhost:8080)",
  KEY: "a sandbox API key of $ORG_ID with every scope",
  ADMIN_TOKEN: "the operator token (admin API samples only)",
  ORG_ID: "the organization of $KEY (org_demo)",
  SCHEDULER_SECRET: "the server's SCHEDULER_SECRET (the corridor dispatch sample only; unset in a default sandbox)",
  WALLET_ID: "a v1 sandbox wallet",
  PAYMENT_ID: "a v1 sandbox payment",
  PROJECT_ID: "a freshly generated contract project (its stage samples run in the reference's order)",
  APPROVAL_ID: "a pending approval request that another actor raised (a custody wallet request)",
  SELECTION_RECEIPT_ID: "a provider selection receipt",
  BANK_TRANSFER_ID: "a pending bank transfer",
  WORKFLOW_RUN_ID: "a corridor workflow run",
  CUSTODY_WALLET_ID: "an active custody wallet (reviewed custody simulator connected)",
  CUSTODY_TRANSFER_ID: "a requested custody transfer",
  ISSUER_ID: "the issuer of a launched sandbox token",
  CONTRACT_ADDRESS: "that token's contract address on the sandbox chain",
  ISSUANCE_REQUEST_ID: "a mint request of that issuer",
  PROGRAMME_ID: "a prefunded USDC card programme",
  CARD_ID: "an active, funded card of that programme",
  CARDHOLDER_ID: "its cardholder",
  AUTHORIZATION_ID: "a pending authorization on that card",
  ENDPOINT_ID: "a webhook endpoint",
  DELIVERY_ID: "a delivery of that endpoint",
  EVENT_ID: "an event",
  KEY_ID: "a second API key of $ORG_ID (the approver the setup used), safe to revoke",
  CONNECTION_ID: "a provider connection of $ORG_ID that no other sample needs",
  SESSION: "the session cookie's value of an owner of $ORG_ID with a verified second factor (the session samples)",
  SESSION_UNVERIFIED: "a second session of that owner, its second factor not yet verified (verifySessionSecondFactor)",
  RECOVERY_CODE: "an unused recovery code of that owner",
  SESSION_WITHOUT_FACTOR: "a session of a member of $ORG_ID without a second factor (beginTotpEnrollment)",
  SESSION_ENROLLING: "a session of a member of $ORG_ID whose TOTP enrolment is pending (confirmTotpEnrollment)",
  TOTP_CODE: "the current code of that pending enrolment (a code lasts about 30 s: run the setup again when it expired)",
  MEMBER_ID: "a viewer of $ORG_ID, safe to change and remove",
  INVITATION_TOKEN: "the token of an unused invitation to $ORG_ID",
};

const ID_VALUE = /^([a-z]+)_[A-Za-z0-9]{6,}$/;
/** Marks a placeholder inside a serialized value (`⟪VAR⟫`, which JSON.stringify keeps as is); replaced per language. */
const mark = (variable: string) => `⟪${variable}⟫`;
const MARKED = /⟪([A-Z_]+)⟫/g;

function variableForParameter(pathTemplate: string, parameter: Json, doc: Doc): string {
  const fixed = PATH_PARAMETERS[`${pathTemplate} ${String(parameter.name)}`];
  if (fixed) return "variable" in fixed ? `$${fixed.variable}` : fixed.literal;
  // The id's prefix: from its pattern, or — a path id has none, any id answering 404 when it names nothing — from the
  // form its description gives (`wal_…`).
  const pattern = deref(doc, parameter.schema).pattern;
  const prefix =
    typeof pattern === "string" ? /^\^([a-z]+)_/.exec(pattern)?.[1] : /`([a-z]+)_…`/.exec(String(parameter.description ?? ""))?.[1];
  const variable = prefix ? ID_VARIABLES[prefix] : undefined;
  if (!variable) throw new Error(`code samples: no variable for path parameter ${String(parameter.name)} of ${pathTemplate}`);
  return `$${variable}`;
}

/** A required query parameter: the organization, else the parameter's example. */
function queryValue(parameter: Json, doc: Doc): string {
  if (parameter.name === "organizationId") return "$ORG_ID";
  const example = parameter.example ?? deref(doc, parameter.schema).example;
  if (example === undefined) throw new Error(`code samples: no value for required query parameter ${String(parameter.name)}`);
  return encodeURIComponent(String(example));
}

/** The example with ids replaced by placeholder marks; throws on an id-like value without a variable. */
function withPlaceholders(value: unknown, where: string, admin: boolean, fields: Record<string, string>, key?: string): unknown {
  if (Array.isArray(value)) return value.map((v) => withPlaceholders(v, where, admin, fields));
  if (value && typeof value === "object") {
    const out: Json = {};
    for (const [k, v] of Object.entries(value)) {
      if (k === "organizationId") {
        if (admin) out[k] = mark("ORG_ID");
        continue;
      }
      out[k] = withPlaceholders(v, where, admin, fields, k);
    }
    return out;
  }
  if (typeof value !== "string") return value;
  if (key && fields[key]) return mark(fields[key]);
  const prefix = ID_VALUE.exec(value)?.[1];
  if (prefix === undefined) return value;
  if (!ID_VARIABLES[prefix]) throw new Error(`code samples: ${where}: no variable for the id ${key ?? ""}=${value}`);
  return mark(ID_VARIABLES[prefix]);
}

/** The first request-body example (the one a reader copies first). */
function firstExample(raw: Json): { value: unknown } | undefined {
  const media = ((raw.requestBody as Json | undefined)?.content as Json | undefined)?.["application/json"] as Json | undefined;
  if (!media) return undefined;
  const examples = media.examples as Record<string, Json> | undefined;
  if (examples) {
    const first = Object.values(examples)[0];
    if (first) return { value: first.value };
  }
  if (media.example !== undefined) return { value: media.example };
  throw new Error(`code samples: ${String(raw.operationId)} has a request body but no example`);
}

/** JSON for an unquoted heredoc: `$`, backquote and backslash escaped, placeholders as "$VAR". */
function heredocJson(value: unknown): string {
  return JSON.stringify(value, null, 2)
    .replace(/[\\$`]/g, (c) => `\\${c}`)
    .replace(MARKED, "$$$1");
}

/** A TypeScript expression for the value: placeholders as `process.env.VAR!`. */
function tsValue(value: unknown, indent = ""): string {
  return JSON.stringify(value, null, 2)
    .replace(/"⟪([A-Z_]+)⟫"/g, "process.env.$1!")
    .replace(/^"([A-Za-z_$][\w$]*)":/gm, "$1:")
    .replace(/^(\s+)"([A-Za-z_$][\w$]*)":/gm, "$1$2:")
    .replace(/\n/g, `\n${indent}`);
}

const env = (ref: string) => (ref.startsWith("$") ? `process.env.${ref.slice(1)}!` : JSON.stringify(ref));

function curlSample(o: ReturnType<typeof specOperations>[number], doc: Doc, body: unknown): string {
  const { op, parameters } = o;
  let url = op.pathTemplate;
  for (const p of parameters.filter((p) => p.in === "path"))
    url = url.replace(`{${String(p.name)}}`, variableForParameter(op.pathTemplate, p, doc));
  const query = parameters.filter((p) => p.in === "query" && p.required).map((p) => `${String(p.name)}=${queryValue(p, doc)}`);
  if (query.length > 0) url += `?${query.join("&")}`;
  const lines = [`curl -sS${op.method === "GET" ? "" : ` -X ${op.method}`} "$COINPLANE_URL${url}"`];
  // A session operation (and approving/rejecting, which only people do) sends the session cookie; a state-changing one
  // also names this server as its origin, as a browser would (the CSRF check).
  if (op.sessionAccepted) {
    lines.push(`-b "__Host-cp_session=$${sessionVariable(op.operationId)}"`);
    if (op.method !== "GET") lines.push(`-H "Origin: $COINPLANE_URL"`);
  } else if (op.security === "apiKey") lines.push(`-H "Authorization: Bearer $KEY"`);
  if (op.security === "adminToken") lines.push(`-H "Authorization: Bearer $ADMIN_TOKEN"`);
  if (op.security === "schedulerSecret") lines.push(`-H "X-Scheduler-Secret: $SCHEDULER_SECRET"`);
  if (op.idempotency === "required") lines.push(`-H "Idempotency-Key: $(openssl rand -hex 16)"`);
  if (body === undefined) return lines.join(" \\\n  ");
  if (JSON.stringify(body) === "{}") return [...lines, `-H "Content-Type: application/json"`, "-d '{}'"].join(" \\\n  ");
  lines.push(`-H "Content-Type: application/json"`, "--data @- <<EOF");
  return `${lines.join(" \\\n  ")}\n${heredocJson(body)}\nEOF`;
}

function sdkSample(o: ReturnType<typeof specOperations>[number], doc: Doc, body: unknown): string | undefined {
  const entry = (operationMap as Record<string, readonly [string, string]>)[o.op.operationId];
  if (!entry) return undefined;
  const [namespace, method] = entry;
  const args = o.parameters
    .filter((p) => p.in === "path")
    .sort((a, b) => o.op.pathTemplate.indexOf(`{${String(a.name)}}`) - o.op.pathTemplate.indexOf(`{${String(b.name)}}`))
    .map((p) => env(variableForParameter(o.op.pathTemplate, p, doc)));
  if (body !== undefined) args.push(tsValue(body));
  return [
    `import { Coinplane } from "@coinplane/sdk";`,
    "",
    "const coinplane = new Coinplane({",
    o.op.sessionAccepted ? `  sessionCookie: process.env.${sessionVariable(o.op.operationId)}!,` : "  apiKey: process.env.KEY!,",
    `  baseUrl: process.env.COINPLANE_URL ?? "http://localhost:8080",`,
    "});",
    `const result = await coinplane.${namespace}.${method}(${args.join(", ")});`,
    "console.log(result);",
  ].join("\n");
}

/** Adds `x-codeSamples` to every operation of the bundled spec (in place) and returns the spec. */
export function addCodeSamples<T extends Doc>(doc: T): T {
  for (const o of specOperations(doc)) {
    const example = firstExample(o.raw);
    const where = `${o.op.method} ${o.op.pathTemplate}`;
    const fields = { ...FIELD_VARIABLES, ...OPERATION_FIELD_VARIABLES[o.op.operationId] };
    const body = example ? withPlaceholders(example.value, where, o.op.surface === "admin", fields) : undefined;
    const samples: CodeSample[] = [{ lang: "Shell", label: "curl", source: curlSample(o, doc, body) }];
    const sdk = sdkSample(o, doc, body);
    if (sdk) samples.push({ lang: "TypeScript", label: "SDK", source: sdk });
    o.raw["x-codeSamples"] = samples;
  }
  return doc;
}
