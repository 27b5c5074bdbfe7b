// Admin CLI: a thin client of the operator API (`/api/admin/*`). `npm run cli -- --help` for usage.
// Reads COINPLANE_URL (default http://127.0.0.1:${PORT:-8080}, the server `npm start` runs with the same PORT) and ADMIN_TOKEN (else ./.data/admin-token, written by the server).
import { existsSync, readFileSync } from "node:fs";
import { parseArgs } from "node:util";

const USAGE = `Coinplane admin CLI

Usage: npm run cli -- <command> [options]

Commands:
  keys create --org ID --env sandbox|production --scopes a:write,b:read [--actor X] [--label Y] [--limit ASSET:PER_CALL/PER_24H ...]
  keys list --org ID
  keys revoke KEY_ID
  connections add --org ID --env sandbox|production --category C --provider SLUG [--reviewed] [--config JSON]
  connections list --org ID
  connections remove CONNECTION_ID
  members invite --org ID --email EMAIL --role owner|developer|approver|viewer   (prints the one-time invitation link)

Scopes are <resource>:<read|write>; resources: wallets, payments, cards, compliance, projects, analytics, fx, webhooks.
Spending limits (repeat --limit per asset or currency): --limit USDC:100/1000 (at most 100 per call and 1000 per rolling
24 h), --limit USDC:100/ (per call only), --limit EUR:/5000 (24 h only). A key with limits moves only the assets it lists.
Connection categories: bank_transfer, custody, card_issuance, token_issuance, chain_read, compliance_screening, fx.

Environment:
  COINPLANE_URL  server address (default http://127.0.0.1:\${PORT:-8080})
  ADMIN_TOKEN    operator token (default: the contents of ./.data/admin-token)

Prints the server's JSON response. --print FIELD prints only that field of it, bare, for a shell to capture:
  export KEY=$(npm run -s cli -- keys create --org org_demo --env sandbox --scopes wallets:write --print key)
Exit status: 0 on success, 1 when the server refuses, cannot be reached or the field is missing, 2 on a usage error.`;

class UsageError extends Error {}

const OPTIONS = {
  org: { type: "string" },
  env: { type: "string" },
  scopes: { type: "string" },
  actor: { type: "string" },
  label: { type: "string" },
  limit: { type: "string", multiple: true },
  category: { type: "string" },
  provider: { type: "string" },
  reviewed: { type: "boolean" },
  config: { type: "string" },
  print: { type: "string" },
  email: { type: "string" },
  role: { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

type Values = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>["values"];

interface Request {
  method: "GET" | "POST" | "DELETE";
  path: string;
  body?: unknown;
}

function required(values: Values, ...names: Array<keyof typeof OPTIONS>): void {
  const missing = names.filter((name) => values[name] === undefined || values[name] === "");
  if (missing.length > 0) throw new UsageError(`missing ${missing.map((n) => `--${n}`).join(", ")}`);
}

function allowOnly(values: Values, ...names: Array<keyof typeof OPTIONS>): void {
  const extra = Object.keys(values).filter((name) => name !== "help" && name !== "print" && !names.includes(name as keyof typeof OPTIONS));
  if (extra.length > 0) throw new UsageError(`unexpected ${extra.map((n) => `--${n}`).join(", ")} for this command`);
}

function oneId(rest: string[], what: string): string {
  if (rest.length !== 1 || !rest[0]) throw new UsageError(`expected exactly one ${what}`);
  return rest[0];
}

function noPositionals(rest: string[]): void {
  if (rest.length > 0) throw new UsageError(`unexpected argument ${rest[0]}`);
}

/** `USDC:100/1000` → { asset: "USDC", perCall: "100", per24h: "1000" }; either amount may be left out (not both). */
function parseLimit(text: string): { asset: string; perCall?: string; per24h?: string } {
  const match = /^([A-Za-z0-9]{2,12}):([0-9.]*)\/([0-9.]*)$/.exec(text);
  if (!match || (!match[2] && !match[3])) throw new UsageError(`--limit ${text}: expected ASSET:PER_CALL/PER_24H, e.g. USDC:100/1000`);
  const [, asset, perCall, per24h] = match as unknown as [string, string, string, string];
  return { asset: asset.toUpperCase(), ...(perCall ? { perCall } : {}), ...(per24h ? { per24h } : {}) };
}

/** Maps the command line to one admin API request. */
function toRequest(positionals: string[], values: Values): Request {
  const [group, action, ...rest] = positionals;
  const org = () => encodeURIComponent(values.org as string);
  switch (`${group} ${action}`) {
    case "members invite":
      noPositionals(rest);
      allowOnly(values, "org", "email", "role");
      required(values, "org", "email", "role");
      return {
        method: "POST",
        path: `/api/admin/organizations/${org()}/member-invitations`,
        body: { email: values.email, role: values.role },
      };
    case "keys create":
      noPositionals(rest);
      allowOnly(values, "org", "env", "scopes", "actor", "label", "limit");
      required(values, "org", "env", "scopes");
      return {
        method: "POST",
        path: "/api/admin/keys",
        body: {
          organizationId: values.org,
          environment: values.env,
          scopes: (values.scopes as string)
            .split(",")
            .map((s) => s.trim())
            .filter(Boolean),
          ...(values.actor !== undefined ? { actor: values.actor } : {}),
          ...(values.label !== undefined ? { label: values.label } : {}),
          ...(values.limit !== undefined ? { spendingLimits: values.limit.map(parseLimit) } : {}),
        },
      };
    case "keys list":
      noPositionals(rest);
      allowOnly(values, "org");
      required(values, "org");
      return { method: "GET", path: `/api/admin/keys?organizationId=${org()}` };
    case "keys revoke":
      allowOnly(values);
      return { method: "DELETE", path: `/api/admin/keys/${encodeURIComponent(oneId(rest, "key id"))}` };
    case "connections add": {
      noPositionals(rest);
      allowOnly(values, "org", "env", "category", "provider", "reviewed", "config");
      required(values, "org", "env", "category", "provider");
      let config: unknown;
      if (values.config !== undefined) {
        try {
          config = JSON.parse(values.config);
        } catch {
          throw new UsageError('--config must be JSON, e.g. \'{"reserveRatio":"1.02"}\'');
        }
      }
      return {
        method: "POST",
        path: "/api/admin/connections",
        body: {
          organizationId: values.org,
          environment: values.env,
          category: values.category,
          providerSlug: values.provider,
          reviewed: values.reviewed === true,
          ...(config !== undefined ? { config } : {}),
        },
      };
    }
    case "connections list":
      noPositionals(rest);
      allowOnly(values, "org");
      required(values, "org");
      return { method: "GET", path: `/api/admin/connections?organizationId=${org()}` };
    case "connections remove":
      allowOnly(values);
      return { method: "DELETE", path: `/api/admin/connections/${encodeURIComponent(oneId(rest, "connection id"))}` };
    default:
      throw new UsageError(group ? `unknown command: ${positionals.slice(0, 2).join(" ")}` : "no command given");
  }
}

function adminToken(): string {
  const fromEnv = process.env.ADMIN_TOKEN?.trim();
  if (fromEnv) return fromEnv;
  const file = "./.data/admin-token";
  if (existsSync(file)) {
    const token = readFileSync(file, "utf8").trim();
    if (token) return token;
  }
  throw new UsageError("ADMIN_TOKEN is not set and ./.data/admin-token does not exist");
}

function describeFailure(status: number, text: string): string {
  try {
    const body = JSON.parse(text) as { error?: string; code?: string; errors?: Array<{ path: string; message: string }> };
    const fields = (body.errors ?? []).map((e) => `\n  ${e.path} ${e.message}`).join("");
    return `${status} ${body.code ?? "error"}: ${body.error ?? text}${fields}`;
  } catch {
    return `${status}: ${text || "(no body)"}`;
  }
}

/** `--print FIELD`: one top-level field of the response, bare (a string without quotes), for `$(…)` capture. */
function printField(body: unknown, field: string): number {
  const value = body && typeof body === "object" ? (body as Record<string, unknown>)[field] : undefined;
  if (value === undefined || value === null) {
    console.error(`error: the response has no field "${field}"`);
    return 1;
  }
  console.log(typeof value === "string" ? value : JSON.stringify(value));
  return 0;
}

async function main(argv: string[]): Promise<number> {
  let parsed: ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>;
  try {
    parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (parsed.values.help) {
    console.log(USAGE);
    return 0;
  }
  const request = toRequest(parsed.positionals, parsed.values);
  const token = adminToken();
  const base = (process.env.COINPLANE_URL || `http://127.0.0.1:${process.env.PORT || 8080}`).replace(/\/+$/, "");
  let res: Response;
  try {
    res = await fetch(`${base}${request.path}`, {
      method: request.method,
      headers: {
        authorization: `Bearer ${token}`,
        accept: "application/json",
        ...(request.body !== undefined ? { "content-type": "application/json" } : {}),
      },
      body: request.body !== undefined ? JSON.stringify(request.body) : undefined,
    });
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    console.error(`error: cannot reach ${base}: ${cause?.code ?? cause?.message ?? (error as Error).message}`);
    return 1;
  }
  const text = await res.text();
  if (!res.ok) {
    console.error(`error: ${describeFailure(res.status, text)}`);
    return 1;
  }
  if (res.status === 204) {
    console.log(JSON.stringify({ id: decodeURIComponent(request.path.split("/").pop() as string), removed: true }, null, 2));
    return 0;
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    console.log(text);
    return 0;
  }
  if (parsed.values.print !== undefined) return printField(body, parsed.values.print);
  // An invitation's link is what the operator passes on: printed bare (the token is in it, shown this once).
  if (request.path.endsWith("/member-invitations")) return printField(body, "invitationUrl");
  console.log(JSON.stringify(body, null, 2));
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    if (error instanceof UsageError) {
      console.error(`error: ${error.message}\nRun \`npm run cli -- --help\` for usage.`);
      process.exitCode = 2;
      return;
    }
    console.error(`error: ${(error as Error).message}`);
    process.exitCode = 1;
  },
);
