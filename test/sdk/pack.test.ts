// The published package as an integrator gets it: `npm pack` (prepack builds ESM + CJS + declarations) → installed into a
// fresh TypeScript project with nothing else from this repository → a consumer file type-checks under strict NodeNext
// and runs against the real server (ESM and CJS), and verifies a signed webhook; a wrong field in the consumer fails tsc.
import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../helpers/test-server.ts";

const exec = promisify(execFile);
const root = path.resolve(import.meta.dirname, "../..");
let server: TestServer;
let project: string;
let key: string;

const CONSUMER = `import { Coinplane, isCoinplaneError, NotFoundError, type components, webhooks } from "@coinplane/sdk";

const coinplane = new Coinplane({ apiKey: process.env.COINPLANE_API_KEY ?? "", baseUrl: process.env.COINPLANE_URL ?? "", environment: "sandbox" });
const wallet: components["schemas"]["Wallet"] = await coinplane.wallets.create({ chain: "polygon", label: "from the tarball" });
const payment = await coinplane.payments.create({ amount: "9.99", stablecoin: "DAI", chain: "polygon", toAddress: wallet.address });
const ids: string[] = [];
for await (const p of coinplane.payments.list({ limit: 1 })) ids.push(p.id);
let notFound = "";
try {
  await coinplane.wallets.retrieve("wal_doesnotexist00000000000");
} catch (err) {
  if (err instanceof NotFoundError && isCoinplaneError(err, "not_found")) notFound = \`\${err.status} \${err.code} \${err.requestId}\`;
}
const secret = "whsec_" + Buffer.from("0123456789abcdef0123456789abcdef").toString("base64");
const body = JSON.stringify({ id: "evt_pack", type: "card.frozen", data: { cardId: "card_1" } });
const signed = webhooks.headers({ id: "evt_pack", timestamp: Math.floor(Date.now() / 1000), body, secrets: [secret] });
const event = webhooks.verify(body, signed, secret);
const webhook = event.type === "card.frozen" ? event.data.cardId : "";
console.log(JSON.stringify({ wallet: wallet.id, chain: wallet.chain, payment: payment.status, ids, notFound, webhook }));
`;

const CJS_CONSUMER = `const { Coinplane, CoinplaneError } = require("@coinplane/sdk");
const coinplane = new Coinplane({ apiKey: process.env.COINPLANE_API_KEY, baseUrl: process.env.COINPLANE_URL });
coinplane.balances.retrieve().then((b) => console.log(JSON.stringify({ cjs: typeof b.totalUSD, isClass: typeof CoinplaneError })));
`;

const TYPE_ERROR = `import { Coinplane } from "@coinplane/sdk";
const coinplane = new Coinplane({ apiKey: "k", baseUrl: "http://localhost:8080" });
await coinplane.wallets.create({ chain: "base", labell: "typo" });
`;

beforeAll(async () => {
  server = await startTestServer();
  key = (await server.createKey({ organizationId: "org_tarball", scopes: ["wallets:write", "payments:write"] })).key;
  project = mkdtempSync(path.join(tmpdir(), "coinplane-consumer-"));
  await exec("npm", ["pack", "--pack-destination", project], { cwd: path.join(root, "sdk"), timeout: 120_000 });
  const tarball = readdirSync(project).find((f) => f.endsWith(".tgz"));
  if (!tarball) throw new Error("npm pack produced no tarball");
  writeFileSync(path.join(project, "package.json"), JSON.stringify({ name: "consumer", private: true, type: "module" }));
  writeFileSync(
    path.join(project, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: {
        target: "ES2022",
        module: "NodeNext",
        moduleResolution: "NodeNext",
        strict: true,
        outDir: "out",
        types: ["node"],
        skipLibCheck: false,
      },
      files: ["consumer.ts"],
    }),
  );
  writeFileSync(path.join(project, "consumer.ts"), CONSUMER);
  writeFileSync(path.join(project, "consumer.cjs"), CJS_CONSUMER);
  // Installs only the tarball and the compiler (from the npm cache when possible): nothing else from this repository.
  await exec(
    "npm",
    ["install", "--prefer-offline", "--no-audit", "--no-fund", "--ignore-scripts", `./${tarball}`, "typescript@5.9", "@types/node@20"],
    { cwd: project, timeout: 240_000 },
  );
}, 300_000);

afterAll(async () => {
  await server?.close();
  if (project) rmSync(project, { recursive: true, force: true });
});

const tsc = (args: string[]) => exec(process.execPath, [path.join(project, "node_modules/typescript/bin/tsc"), ...args], { cwd: project });

describe("the packed SDK in a fresh project", () => {
  it("ships the build and no sources", () => {
    const files = readdirSync(path.join(project, "node_modules/@coinplane/sdk/dist/esm"));
    expect(files).toContain("index.js");
    expect(files).toContain("index.d.ts");
    expect(readdirSync(path.join(project, "node_modules/@coinplane/sdk"))).not.toContain("src");
  });

  it("type-checks a consumer (strict, NodeNext, skipLibCheck off) and runs it against the real server", async () => {
    await tsc(["-p", "tsconfig.json"]);
    const { stdout } = await exec(process.execPath, [path.join(project, "out/consumer.js")], {
      cwd: project,
      env: { ...process.env, COINPLANE_URL: server.url, COINPLANE_API_KEY: key },
    });
    const out = JSON.parse(stdout);
    expect(out).toMatchObject({ chain: "polygon", payment: "confirmed" });
    expect(out.ids).toHaveLength(1);
    expect(out.notFound).toMatch(/^404 not_found req_/);
    expect(out.webhook).toBe("card_1");
    const stored = await server.db.prisma.wallet.findFirst({ where: { id: out.wallet } });
    expect(stored?.label).toBe("from the tarball");
  });

  it("works from CommonJS", async () => {
    const { stdout } = await exec(process.execPath, [path.join(project, "consumer.cjs")], {
      cwd: project,
      env: { ...process.env, COINPLANE_URL: server.url, COINPLANE_API_KEY: key },
    });
    expect(JSON.parse(stdout)).toEqual({ cjs: "string", isClass: "function" });
  });

  it("fails tsc on a wrong field", async () => {
    writeFileSync(path.join(project, "bad.ts"), TYPE_ERROR);
    const result = await tsc([
      "--noEmit",
      "--strict",
      "--module",
      "NodeNext",
      "--moduleResolution",
      "NodeNext",
      "--target",
      "ES2022",
      "--types",
      "node",
      "bad.ts",
    ]).then(
      () => ({ failed: false, output: "" }),
      (err: { stdout?: string }) => ({ failed: true, output: err.stdout ?? "" }),
    );
    expect(result.failed).toBe(true);
    expect(result.output).toMatch(/^bad\.ts\(3,\d+\): error TS\d+: .*'labell' does not exist in type/);
    expect(result.output.match(/error TS/g)).toHaveLength(1);
  });
});
