// The package as an integrator installs it today (it is not on the npm registry): `npm pack` in sdk/ (prepack builds
// ESM + CJS + declarations) → `npm install ./coinplane-sdk-<version>.tgz` into a fresh project, offline from the npm
// cache (its dependencies, openapi-fetch and the MCP SDK, are there since this repository installed them). Then:
// - a consumer type-checks under strict NodeNext against the installed declarations (skipLibCheck off), and a wrong field
//   fails the check;
// - the declarations carry the spec's documentation: every method's JSDoc starts with its operation's summary, and the
//   type checker (what an editor shows on hover) finds it on `coinplane.wallets.create`;
// - the consumer runs from ESM and from CommonJS against the real server (withResponse, toArray, error classes).
// The compiler is this repository's TypeScript, run in-process (one program for every check, so the test stays fast);
// nothing else of the repository reaches the project except @types/node.
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { operationMap } from "../../sdk/src/operation-map.ts";
import { startTestServer, type TestServer } from "../helpers/test-server.ts";

const exec = promisify(execFile);
const root = path.resolve(import.meta.dirname, "../..");
const spec = JSON.parse(readFileSync(path.join(root, "openapi/generated/openapi.json"), "utf8")) as {
  paths: Record<string, Record<string, { operationId?: string; summary?: string; description?: string }>>;
};
const operations = new Map(
  Object.values(spec.paths)
    .flatMap((item) => Object.values(item))
    .filter((op) => typeof op === "object" && op?.operationId)
    .map((op) => [op.operationId as string, op]),
);
let server: TestServer;
let project: string;
let key: string;
let program: ts.Program;

const CONSUMER = `import { Coinplane, CoinplaneNotFoundError, isCoinplaneError, NotFoundError, type Schemas, webhooks } from "@coinplane/sdk";

const coinplane = new Coinplane({ apiKey: process.env.COINPLANE_API_KEY ?? "", baseUrl: process.env.COINPLANE_URL ?? "", environment: "sandbox" });
const created = await coinplane.wallets.create({ chain: "polygon", label: "from the tarball" }).withResponse();
const wallet: Schemas.Wallet = created.data;
const body = { amount: "9.99", stablecoin: "DAI", chain: "polygon", toAddress: wallet.address } as const;
const payment = await coinplane.payments.create(body, { idempotencyKey: "pack-" + wallet.id });
const replay = await coinplane.payments.create(body, { idempotencyKey: "pack-" + wallet.id }).withResponse();
await coinplane.payments.create({ ...body, amount: "1.00" });
const ids: string[] = [];
for await (const p of coinplane.payments.list({ limit: 1 })) ids.push(p.id);
const firstOnly = await coinplane.payments.list({ limit: 1 }).toArray({ limit: 1 });
let notFound = "";
try {
  await coinplane.wallets.retrieve("wal_doesnotexist00000000000");
} catch (err) {
  if (err instanceof CoinplaneNotFoundError && err instanceof NotFoundError && isCoinplaneError(err, "not_found")) {
    notFound = \`\${err.name} \${err.status} \${err.code} \${err.requestId}\`;
  }
}
const secret = "whsec_" + Buffer.from("0123456789abcdef0123456789abcdef").toString("base64");
const raw = JSON.stringify({ id: "evt_pack", type: "card.frozen", data: { cardId: "card_1" } });
const signed = webhooks.headers({ id: "evt_pack", timestamp: Math.floor(Date.now() / 1000), body: raw, secrets: [secret] });
const event = webhooks.verify(raw, signed, secret);
const webhook = event.type === "card.frozen" ? event.data.cardId : "";
console.log(JSON.stringify({
  wallet: wallet.id,
  chain: wallet.chain,
  created: { status: created.status, requestId: created.requestId, replayed: created.idempotentReplayed },
  payment: payment.status,
  replay: { same: replay.data.id === payment.id, replayed: replay.idempotentReplayed, status: replay.status },
  ids,
  firstOnly: firstOnly.length,
  notFound,
  webhook,
}));
`;

const CJS_CONSUMER = `const sdk = require("@coinplane/sdk");
const coinplane = new sdk.Coinplane({ apiKey: process.env.COINPLANE_API_KEY, baseUrl: process.env.COINPLANE_URL });
(async () => {
  const balances = await coinplane.balances.retrieve().withResponse();
  const err = await coinplane.wallets.retrieve("wal_doesnotexist00000000000").catch((e) => e);
  console.log(JSON.stringify({
    cjs: typeof balances.data.totalUSD,
    status: balances.status,
    requestId: balances.requestId,
    notFound: err instanceof sdk.CoinplaneNotFoundError && err instanceof sdk.CoinplaneApiError && err instanceof sdk.CoinplaneError,
    alias: sdk.NotFoundError === sdk.CoinplaneNotFoundError,
  }));
})();
`;

const TYPE_ERROR = `import { Coinplane } from "@coinplane/sdk";
const coinplane = new Coinplane({ apiKey: "k", baseUrl: "http://localhost:8080" });
await coinplane.wallets.create({ chain: "base", labell: "typo" });
`;

async function packAndInstall(): Promise<string> {
  const dir = mkdtempSync(path.join(tmpdir(), "coinplane-consumer-"));
  await exec("npm", ["pack", "--pack-destination", dir], { cwd: path.join(root, "sdk"), timeout: 150_000 });
  const tarball = readdirSync(dir).find((f) => /^coinplane-sdk-\d+\.\d+\.\d+.*\.tgz$/.test(f));
  if (!tarball) throw new Error("npm pack produced no coinplane-sdk tarball");
  writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: "consumer", private: true, type: "module" }));
  writeFileSync(path.join(dir, "consumer.ts"), CONSUMER);
  writeFileSync(path.join(dir, "bad.ts"), TYPE_ERROR);
  writeFileSync(path.join(dir, "consumer.cjs"), CJS_CONSUMER);
  // Only the tarball (and its dependency, from the npm cache when there): nothing else from this repository.
  await exec("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", "--ignore-scripts", `./${tarball}`], {
    cwd: dir,
    timeout: 120_000,
  });
  return dir;
}

beforeAll(async () => {
  [server, project] = await Promise.all([startTestServer(), packAndInstall()]);
  key = (await server.createKey({ organizationId: "org_tarball", scopes: ["wallets:write", "payments:write"] })).key;
  program = ts.createProgram({
    rootNames: [path.join(project, "consumer.ts"), path.join(project, "bad.ts")],
    options: {
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      strict: true,
      skipLibCheck: false,
      outDir: path.join(project, "out"),
      rootDir: project,
      types: ["node"],
      typeRoots: [path.join(root, "node_modules/@types")],
    },
  });
}, 240_000);

afterAll(async () => {
  await server?.close();
  if (project) rmSync(project, { recursive: true, force: true });
});

const installed = (...parts: string[]) => path.join(project, "node_modules/@coinplane/sdk", ...parts);

describe("the packed SDK in a fresh project", () => {
  it("ships the ESM and CJS builds with declarations, and no sources", () => {
    for (const file of ["dist/esm/index.js", "dist/esm/index.d.ts", "dist/cjs/index.js", "dist/cjs/index.d.ts"]) {
      expect(existsSync(installed(file)), file).toBe(true);
    }
    expect(readdirSync(installed())).not.toContain("src");
    expect(existsSync(path.join(project, "node_modules/openapi-fetch/package.json"))).toBe(true);
  });

  it("type-checks a consumer and the installed declarations (strict, NodeNext, no lib check skipped); a wrong field is the one error", () => {
    // The consumer's files and every declaration file of the package (not @types/node or TypeScript's lib: not ours).
    const checked = program
      .getSourceFiles()
      .filter((f) => !f.fileName.includes(`${path.sep}node_modules${path.sep}`) || f.fileName.startsWith(installed() + path.sep));
    expect(checked.filter((f) => f.fileName.endsWith(".d.ts")).length).toBeGreaterThan(10);
    const all = [
      ...program.getOptionsDiagnostics(),
      ...program.getGlobalDiagnostics(),
      ...checked.flatMap((f) => [...program.getSyntacticDiagnostics(f), ...program.getSemanticDiagnostics(f)]),
    ].map((d) => `${d.file ? path.relative(project, d.file.fileName) : "-"}: ${ts.flattenDiagnosticMessageText(d.messageText, " ")}`);
    expect(all).toHaveLength(1);
    expect(all[0]).toMatch(/^bad\.ts: .*'labell' does not exist in type/);
  }, 90_000);

  it("declares every method with its operation's summary and description as JSDoc (ESM and CJS)", () => {
    for (const build of ["esm", "cjs"]) {
      const dts = readFileSync(installed(`dist/${build}/generated/namespaces.d.ts`), "utf8");
      for (const [operationId, [namespace, method]] of Object.entries(operationMap)) {
        const op = operations.get(operationId);
        const name = `${namespace.charAt(0).toUpperCase()}${namespace.slice(1)}Namespace`;
        const block = dts.slice(dts.indexOf(`export interface ${name} {`));
        const declaration = new RegExp(`\\n    /\\*\\*\\n((?:     \\*.*\\n)+?)     \\*/\\n    ${method}\\(`).exec(
          block.slice(0, block.indexOf("\n}")),
        );
        expect(declaration, `${build}: ${namespace}.${method} has no JSDoc`).not.toBeNull();
        const doc = (declaration?.[1] ?? "").replace(/^ {5}\* ?/gm, "");
        expect(doc.split("\n")[0], `${build}: ${namespace}.${method}`).toBe(op?.summary?.trim());
        expect(doc).toContain(`(operationId \`${operationId}\`)`);
        const firstLine = op?.description?.trim().split("\n")[0]?.trim();
        if (firstLine) expect(doc, `${build}: ${namespace}.${method}`).toContain(firstLine.replaceAll("*/", "*\\/"));
      }
    }
  });

  it("shows that documentation where an editor looks: on the method, the schema alias and the deprecated name", () => {
    const checker = program.getTypeChecker();
    const source = program.getSourceFile(path.join(project, "consumer.ts"));
    if (!source) throw new Error("consumer.ts is not in the program");
    const docs = new Map<string, { text: string; tags: string[] }>();
    const visit = (node: ts.Node) => {
      const target =
        ts.isPropertyAccessExpression(node) && node.getText(source) === "coinplane.wallets.create"
          ? node.name
          : ts.isQualifiedName(node) && node.getText(source) === "Schemas.Wallet"
            ? node.right
            : ts.isIdentifier(node) && node.text === "NotFoundError" && ts.isBinaryExpression(node.parent)
              ? node
              : undefined;
      if (target) {
        const found = checker.getSymbolAtLocation(target);
        const symbol = found && found.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(found) : found;
        docs.set(node.getText(source), {
          text: ts.displayPartsToString(symbol?.getDocumentationComment(checker)),
          tags: (symbol?.getJsDocTags(checker) ?? []).map((t) => t.name),
        });
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
    const createWallet = operations.get("createWallet");
    expect(docs.get("coinplane.wallets.create")?.text.startsWith(`${createWallet?.summary?.trim()}\n\n`)).toBe(true);
    expect(docs.get("coinplane.wallets.create")?.text).toContain("`POST /api/v1/wallets`");
    expect(docs.get("coinplane.wallets.create")?.tags).toEqual(["param", "param"]);
    expect(docs.get("Schemas.Wallet")?.text).toContain("Returned by `coinplane.wallets.create`");
    expect(docs.get("NotFoundError")?.tags).toContain("deprecated");
  });

  it("runs from ESM against the real server: withResponse, idempotent replay, iteration, toArray, error classes", async () => {
    const emitted = program.emit(program.getSourceFile(path.join(project, "consumer.ts")));
    expect(emitted.emitSkipped).toBe(false);
    const { stdout } = await exec(process.execPath, [path.join(project, "out/consumer.js")], {
      cwd: project,
      env: { ...process.env, COINPLANE_URL: server.url, COINPLANE_API_KEY: key },
    });
    const out = JSON.parse(stdout);
    expect(out).toMatchObject({
      chain: "polygon",
      created: { status: 201, replayed: false },
      payment: "confirmed",
      replay: { same: true, replayed: true, status: 201 },
      firstOnly: 1,
      webhook: "card_1",
    });
    expect(out.created.requestId).toMatch(/^req_/);
    expect(out.ids).toHaveLength(2);
    expect(out.notFound).toMatch(/^CoinplaneNotFoundError 404 not_found req_/);
    const stored = await server.db.prisma.wallet.findFirst({ where: { id: out.wallet } });
    expect(stored?.label).toBe("from the tarball");
  });

  it("works from CommonJS", async () => {
    const { stdout } = await exec(process.execPath, [path.join(project, "consumer.cjs")], {
      cwd: project,
      env: { ...process.env, COINPLANE_URL: server.url, COINPLANE_API_KEY: key },
    });
    const out = JSON.parse(stdout);
    expect(out).toMatchObject({ cjs: "string", status: 200, notFound: true, alias: true });
    expect(out.requestId).toMatch(/^req_/);
  });
});
