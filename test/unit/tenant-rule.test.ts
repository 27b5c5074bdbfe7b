// The tenant rule (docs/architecture.md "Tenant scoping"): a query on a table whose rows belong to an organization
// filters by its owner through server/db/owned-by.ts (`ownedBy`, `ownedByOrganization`, `findOwned`), never by hand —
// the one filter whose omission leaks one customer's data to another. This fails, naming file:line, when a query on
// such a table (its FROM, aliased or not) does neither, unless the allow-list below says why it needs no owner filter.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");

/** The organization-owned tables: those with an organizationId column in the generated Kysely schema. */
function ownedTablesOf(schema: string): string[] {
  return [...schema.matchAll(/export type (\w+) = \{([^}]*)\}/g)].flatMap(([, table, columns]) =>
    table !== undefined && /\borganizationId:/.test(columns ?? "") ? [table] : [],
  );
}

// A query's table: `.selectFrom("X")`, `.selectFrom("X as x")`, `.updateTable(…)`, `.deleteFrom(…)`. Not checked: inserts
// (they write the owner's columns from the caller's values) and joined tables (reached through the scoped row's keys).
const QUERY = /\b(selectFrom|updateTable|deleteFrom)\(\s*"(\w+)(?: as \w+)?"/g;
const OWNER_FILTER = /\b(ownedBy|ownedByOrganization|findOwned)\(/;
/** An owner filter written by hand: `.where("organizationId", …)`, `.where("w.organizationId", …)`. */
const HAND_WRITTEN = /\.where\(\s*"(\w+\.)?organizationId"/;

/** The statement from `start` on: up to its `;`, or up to the `,` or bracket that ends the expression it sits in (a
 * subquery, an element of `Promise.all([…])`): `nested`. */
function statementFrom(source: string, start: number): { text: string; nested: boolean } {
  let depth = 0;
  for (let i = start; i < source.length; i++) {
    const c = source[i];
    if (c === "(" || c === "[" || c === "{") depth++;
    else if (c === ")" || c === "]" || c === "}") {
      depth--;
      if (depth < 0) return { text: source.slice(start, i), nested: true };
    } else if (c === "," && depth === 0) return { text: source.slice(start, i), nested: true };
    else if (c === ";" && depth === 0) return { text: source.slice(start, i), nested: false };
  }
  return { text: source.slice(start), nested: false };
}

interface Unscoped {
  line: number;
  table: string;
  /** A hand-written owner filter is never allowed; a query with no owner filter may be, on the allow-list. */
  handWritten: boolean;
}

/** The source with its comment lines blanked (a doc comment may show a query), line numbers kept. */
const withoutCommentLines = (source: string) =>
  source
    .split("\n")
    .map((line) => (/^\s*(\/\/|\/\*|\*)/.test(line) ? "" : line))
    .join("\n");

/** The queries of `source` that filter an owner by hand, and those on an owned table that filter by no owner. A
 * correlated subquery (nested, `whereRef` to the outer query) reads the outer row's children, like a join, and is not one. */
function unscopedQueries(source: string, ownedTables: readonly string[]): Unscoped[] {
  const code = withoutCommentLines(source);
  return [...code.matchAll(QUERY)].flatMap((match): Unscoped[] => {
    const table = match[2] ?? "";
    const statement = statementFrom(code, match.index);
    const line = code.slice(0, match.index).split("\n").length;
    // By hand is wrong whatever the FROM: it may filter a joined owned table (`WalletAsset as a` join `Wallet as w`).
    if (HAND_WRITTEN.test(statement.text)) return [{ line, table, handWritten: true }];
    if (!ownedTables.includes(table)) return [];
    if (OWNER_FILTER.test(statement.text)) return [];
    if (statement.nested && /\.whereRef\(/.test(statement.text)) return [];
    return [{ line, table, handWritten: false }];
  });
}

/**
 * Queries that rightly filter by no owner, per file and table, and why. Keep it short: a new request path filters
 * through owned-by.ts; an entry here is for a query that reads no caller's data by the caller's choice.
 */
const BY_KEY_OF_SCOPED_ROW =
  "by the id (or parent id) of a row this request already read through ownedBy/findOwned, or wrote itself (a lock, a version bump, a compensation)";
const ALLOWED: Array<{ file: string; tables: string[]; why: string }> = [
  // Background jobs and operator tasks: they act for no caller, across every organization by design.
  { file: "server/domain/events/purge-old-events.ts", tables: ["Event", "WebhookDelivery"], why: "retention job over all organizations" },
  { file: "server/domain/approvals/sweep-expired-approvals.ts", tables: ["ApprovalRequest"], why: "expiry sweep over all organizations" },
  { file: "server/idempotency/idempotency-store.ts", tables: ["IdempotencyRecord"], why: "retention job over all organizations" },
  {
    file: "server/domain/webhooks/secrets-key-fits.ts",
    tables: ["WebhookEndpoint"],
    why: "the start checks that WEBHOOK_SECRETS_KEY opens the newest stored secret, whichever organization owns it",
  },
  {
    file: "server/first-owner.ts",
    tables: ["MemberInvitation"],
    why: "the start reads the first owner's invitation by its token's hash, before any organization is a caller",
  },
  {
    file: "server/domain/webhooks/reseal-webhook-secrets.ts",
    tables: ["WebhookEndpoint"],
    why: "operator's key rotation re-seals every endpoint",
  },
  {
    file: "server/db/provider-intents.ts",
    tables: ["ProviderIntent"],
    why: "the reconciler claims due intents of every organization; a request's own intent by its id or its key's record",
  },
  {
    file: "server/domain/reconcile/invariants.ts",
    tables: ["ProviderIntent", "BankTransfer", "IdempotencyRecord", "IssuanceRequest"],
    why: "operator's invariant scan over all organizations (npm run check:invariants)",
  },
  {
    file: "server/domain/reconcile/settled-events.ts",
    tables: ["Event", "ActivityEvent"],
    why: "operator's invariant scan over all organizations: events counted per resource (npm run check:invariants)",
  },
  {
    file: "server/domain/custody/custody-transfer-invariants.ts",
    tables: ["CustodyTransfer"],
    why: "operator's invariant scan over all organizations (npm run check:invariants)",
  },
  {
    file: "server/domain/custody/custody-wallet-invariants.ts",
    tables: ["CustodyWallet", "CustodyTransfer"],
    why: "operator's invariant scan over all organizations (npm run check:invariants)",
  },
  {
    file: "server/domain/cards/card-invariants.ts",
    tables: ["Card", "CardLedgerEntry", "CardProgramme", "CardTransaction"],
    why: "operator's invariant scan over all organizations (npm run check:invariants)",
  },
  { file: "server/scheduler/dispatch-due-runs.ts", tables: ["WorkflowRun"], why: "scheduler picks due runs of every organization" },
  { file: "server/scheduler/advance-run.ts", tables: ["WorkflowRun"], why: "scheduler advances a due run by its id" },
  {
    file: "server/webhooks/claim-deliveries.ts",
    tables: ["WebhookDelivery"],
    why: "delivery worker claims due deliveries of every organization",
  },
  {
    file: "server/webhooks/record-attempt.ts",
    tables: ["WebhookDelivery", "WebhookEndpoint"],
    why: "delivery worker, by its claimed delivery's keys",
  },
  // Authentication: the credential is what finds its owner.
  { file: "server/middleware/authenticate.ts", tables: ["ApiKey"], why: "the API key by its hash: the key names its organization" },
  { file: "server/middleware/session-auth.ts", tables: ["MemberSession"], why: "the session by its token hash, then by its own id" },
  {
    file: "server/domain/members/sessions.ts",
    tables: ["Member", "MemberSession"],
    why: "sign-in by email across organizations; then the session's own member and rows",
  },
  { file: "server/domain/members/invitations.ts", tables: ["MemberInvitation"], why: "accepting by the invitation token's hash" },
  {
    file: "server/domain/members/second-factor.ts",
    tables: ["Member", "MemberSession"],
    why: "the signed-in session's own member and session, by id",
  },
  {
    file: "server/db/unit-of-work/idempotency-claim.ts",
    tables: ["IdempotencyRecord"],
    why: "the key's record by the id its ownedByOrganization read returned",
  },
  {
    file: "server/db/unit-of-work/stranded-claims.ts",
    tables: ["IdempotencyRecord"],
    why: "a claim's record by the id and lock token its request wrote",
  },
  // Writes and re-reads keyed by a row already scoped.
  { file: "server/domain/members/members.ts", tables: ["Member"], why: BY_KEY_OF_SCOPED_ROW },
  { file: "server/domain/approvals/consume-approval.ts", tables: ["ApprovalRequest"], why: BY_KEY_OF_SCOPED_ROW },
  { file: "server/domain/bank-transfers/bank-transfer-outcome.ts", tables: ["BankTransfer"], why: BY_KEY_OF_SCOPED_ROW },
  { file: "server/domain/bank-transfers/create-bank-transfer.ts", tables: ["BankTransfer"], why: BY_KEY_OF_SCOPED_ROW },
  { file: "server/domain/bank-transfers/find-bank-transfer.ts", tables: ["BankTransfer"], why: BY_KEY_OF_SCOPED_ROW },
  { file: "server/domain/bank-transfers/get-bank-transfer-status.ts", tables: ["BankTransfer"], why: BY_KEY_OF_SCOPED_ROW },
  { file: "server/domain/cards/authorized-since.ts", tables: ["CardAuthorization"], why: BY_KEY_OF_SCOPED_ROW },
  { file: "server/domain/cards/bump-card-version.ts", tables: ["Card"], why: BY_KEY_OF_SCOPED_ROW },
  { file: "server/domain/cards/create-card-programme.ts", tables: ["CardProgramme"], why: BY_KEY_OF_SCOPED_ROW },
  { file: "server/domain/cards/fund-card.ts", tables: ["CardTransaction"], why: BY_KEY_OF_SCOPED_ROW },
  { file: "server/domain/cards/issue-card.ts", tables: ["Card", "Cardholder"], why: BY_KEY_OF_SCOPED_ROW },
  { file: "server/domain/cards/list-card-transactions.ts", tables: ["CardTransaction"], why: BY_KEY_OF_SCOPED_ROW },
  { file: "server/domain/cards/lock-programme.ts", tables: ["CardProgramme"], why: BY_KEY_OF_SCOPED_ROW },
  { file: "server/domain/cards/post-ledger-journal.ts", tables: ["CardLedgerEntry"], why: BY_KEY_OF_SCOPED_ROW },
  { file: "server/domain/cards/settle-authorization.ts", tables: ["Card", "CardTransaction"], why: BY_KEY_OF_SCOPED_ROW },
  { file: "server/domain/cards/simulate-authorization.ts", tables: ["CardTransaction", "CardAuthorization"], why: BY_KEY_OF_SCOPED_ROW },
  { file: "server/domain/cards/update-authorization.ts", tables: ["CardAuthorization", "CardTransaction"], why: BY_KEY_OF_SCOPED_ROW },
  { file: "server/domain/contracts/lifecycle.ts", tables: ["ContractStageRun"], why: BY_KEY_OF_SCOPED_ROW },
  { file: "server/domain/corridors/run-step.ts", tables: ["CustodyWallet"], why: BY_KEY_OF_SCOPED_ROW },
  { file: "server/domain/corridors/simulate-corridor.ts", tables: ["WorkflowRun"], why: BY_KEY_OF_SCOPED_ROW },
  {
    file: "server/domain/custody/custody-transfer-steps.ts",
    tables: ["CustodyTransfer", "CustodyWallet", "ApprovalRequest"],
    why: BY_KEY_OF_SCOPED_ROW,
  },
  { file: "server/domain/custody/custody-wallet-moves.ts", tables: ["CustodyWallet"], why: BY_KEY_OF_SCOPED_ROW },
  { file: "server/domain/custody/wallet-policy.ts", tables: ["CustodyTransfer"], why: BY_KEY_OF_SCOPED_ROW },
  { file: "server/domain/providers/invoke-provider.ts", tables: ["ProviderInvocation"], why: BY_KEY_OF_SCOPED_ROW },
  { file: "server/domain/webhooks/list-webhook-deliveries.ts", tables: ["WebhookDelivery"], why: BY_KEY_OF_SCOPED_ROW },
  { file: "server/domain/webhooks/retry-webhook-delivery.ts", tables: ["WebhookDelivery"], why: BY_KEY_OF_SCOPED_ROW },
  { file: "server/domain/webhooks/rotate-webhook-secret.ts", tables: ["WebhookEndpoint"], why: BY_KEY_OF_SCOPED_ROW },
  { file: "server/domain/webhooks/update-webhook-endpoint.ts", tables: ["WebhookEndpoint"], why: BY_KEY_OF_SCOPED_ROW },
];

function filesUnder(dir: string): string[] {
  return readdirSync(path.join(root, dir)).flatMap((name) => {
    const relative = `${dir}/${name}`;
    if (relative === "server/generated") return [];
    return statSync(path.join(root, relative)).isDirectory() ? filesUnder(relative) : relative.endsWith(".ts") ? [relative] : [];
  });
}

const ownedTables = ownedTablesOf(readFileSync(path.join(root, "server/generated/kysely/database.ts"), "utf8"));
const allowed = ({ file, table, handWritten }: Unscoped & { file: string }) =>
  !handWritten && ALLOWED.some((entry) => entry.file === file && entry.tables.includes(table));

describe("the tenant rule: queries on organization-owned tables filter through owned-by.ts", () => {
  const files = filesUnder("server");
  const findings = files.flatMap((file) =>
    unscopedQueries(readFileSync(path.join(root, file), "utf8"), ownedTables).map((query) => ({ file, ...query })),
  );

  it("reads the owned tables from the schema (both kinds: organization and environment, organization only)", () => {
    expect(ownedTables).toEqual(expect.arrayContaining(["Payment", "Wallet", "WebhookEndpoint", "ApiKey", "Member", "AuditEntry"]));
    expect(ownedTables).not.toContain("Organization");
    expect(ownedTables).not.toContain("WalletAsset");
  });

  it("every query on an owned table uses ownedBy, or is on the allow-list (never with a hand-written filter)", () => {
    const offending = findings
      .filter((finding) => !allowed(finding))
      .map(({ file, line, table, handWritten }) => `${file}:${line} ${table}${handWritten ? " (filters by hand)" : ""}`);
    expect(offending).toEqual([]);
  });

  it("each allow-list entry still matches a query (a stale entry is removed)", () => {
    const stale = ALLOWED.flatMap(({ file, tables }) =>
      tables
        .filter((table) => !findings.some((f) => !f.handWritten && f.file === file && f.table === table))
        .map((table) => `${file} ${table}`),
    );
    expect(stale).toEqual([]);
  });
});

describe("the rule itself", () => {
  const tables = ["Payment", "Wallet", "Member"];

  it("flags a hand-written filter, aliased or not, and a query with none, at their lines", () => {
    const source = [
      'const a = await db.selectFrom("Payment").selectAll().where("organizationId", "=", auth.organizationId).execute();',
      "const b = await db",
      '  .selectFrom("Wallet as w")',
      '  .where("w.organizationId", "=", auth.organizationId)',
      '  .where("w.environment", "=", auth.environment);',
      'await db.deleteFrom("Member").where("id", "=", id).execute();',
    ].join("\n");
    expect(unscopedQueries(source, tables)).toEqual([
      { line: 1, table: "Payment", handWritten: true },
      { line: 3, table: "Wallet", handWritten: true },
      { line: 6, table: "Member", handWritten: false },
    ]);
  });

  it("passes ownedBy (aliased too), ownedByOrganization, findOwned, tables not owned and correlated subqueries", () => {
    const source = [
      'const a = await db.selectFrom("Payment").selectAll().where(ownedBy(auth)).execute();',
      'const b = await db.selectFrom("Wallet as w").where(ownedBy(auth, "w")).selectAll().execute();',
      'const c = await db.selectFrom("Member").where(ownedByOrganization(organizationId)).selectAll().execute();',
      'const d = await findOwned(db, "Payment", id, auth, "Payment");',
      'const e = await db.selectFrom("Organization").selectAll().execute();',
      '// a comment may show db.selectFrom("Payment").selectAll()',
      'const f = db.selectFrom("Wallet as w").select((eb) => eb.selectFrom("Payment as p").whereRef("p.walletId", "=", "w.id").select("p.id").as("x")).where(ownedBy(auth, "w"));',
    ].join("\n");
    expect(unscopedQueries(source, tables)).toEqual([]);
  });

  it("does not let a nested subquery without whereRef pass on the outer query's filter", () => {
    const source =
      'const x = db.selectFrom("Wallet").where("id", "in", (eb) => eb.selectFrom("Payment").select("walletId")).where(ownedBy(auth));';
    expect(unscopedQueries(source, tables)).toEqual([{ line: 1, table: "Payment", handWritten: false }]);
  });

  it("judges each element of a list of queries on its own", () => {
    const source = [
      "const [a, b] = await Promise.all([",
      '  db.selectFrom("Payment").selectAll().where(ownedBy(auth)).execute(),',
      '  db.selectFrom("Wallet").selectAll().where("organizationId", "=", auth.organizationId).execute(),',
      "]);",
    ].join("\n");
    expect(unscopedQueries(source, tables)).toEqual([{ line: 3, table: "Wallet", handWritten: true }]);
  });

  it("flags a hand-written filter on a joined owned table", () => {
    const source = 'db.selectFrom("WalletAsset as a").innerJoin("Wallet as w", "w.id", "a.walletId").where("w.organizationId", "=", org);';
    expect(unscopedQueries(source, tables)).toEqual([{ line: 1, table: "WalletAsset", handWritten: true }]);
  });

  it("flags a hand-written filter even next to ownedBy, so an allow-listed file cannot filter by hand", () => {
    const source = 'db.selectFrom("Member").where(ownedByOrganization(org)).where("organizationId", "=", org);';
    expect(unscopedQueries(source, tables)).toEqual([{ line: 1, table: "Member", handWritten: true }]);
  });
});
