// The admin CLI (scripts/cli.ts), spawned as `npm run cli` would run it, against a real server.
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { type AddressInfo, createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, startTestServer, type TestServer } from "../helpers/test-server.ts";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const TSX = path.join(ROOT, "node_modules/.bin/tsx");
const CLI = path.join(ROOT, "scripts/cli.ts");
const ORG = "org_cli";

interface Run {
  code: number;
  stdout: string;
  stderr: string;
  // biome-ignore lint/suspicious/noExplicitAny: the printed JSON
  json: any;
}

let server: TestServer;
let scratch: string;

beforeAll(async () => {
  server = await startTestServer();
  scratch = mkdtempSync(path.join(tmpdir(), "coinplane-cli-"));
});
afterAll(async () => {
  rmSync(scratch, { recursive: true, force: true });
  await server?.close();
});

function cli(args: string[], env: Record<string, string | undefined> = {}, cwd = ROOT): Promise<Run> {
  const base: Record<string, string | undefined> = { ...process.env, COINPLANE_URL: server.url, ADMIN_TOKEN: server.adminToken, ...env };
  for (const [name, value] of Object.entries(base)) if (value === undefined) delete base[name];
  return new Promise((resolve) => {
    execFile(TSX, [CLI, ...args], { cwd, env: base as NodeJS.ProcessEnv, timeout: 120_000 }, (error, stdout, stderr) => {
      let json: unknown;
      try {
        json = JSON.parse(stdout);
      } catch {
        json = undefined;
      }
      const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
      resolve({ code, stdout, stderr, json });
    });
  });
}

describe("server address", () => {
  it("without COINPLANE_URL, talks to http://127.0.0.1:$PORT — the server `npm start` runs with the same PORT", async () => {
    const port = new URL(server.url).port;
    const listed = await cli(["keys", "list", "--org", ORG], { COINPLANE_URL: undefined, PORT: port });
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.json).toMatchObject({ count: expect.any(Number) });
  });
});

describe("keys", () => {
  it("create prints a key that then works on GET /api/v1/wallets; list shows it; revoke stops it", async () => {
    const created = await cli([
      "keys",
      "create",
      "--org",
      ORG,
      "--env",
      "sandbox",
      "--scopes",
      "wallets:write, payments:read",
      "--actor",
      "ops@acme.example",
      "--label",
      "CLI key",
    ]);
    expect(created.code, created.stderr).toBe(0);
    expect(created.json).toMatchObject({
      organizationId: ORG,
      environment: "sandbox",
      scopes: ["wallets:write", "payments:read"],
      actor: "ops@acme.example",
      label: "CLI key",
    });
    expect(created.json.key).toMatch(/^cp_sandbox_[0-9A-Za-z]{43}$/);
    const user = api(server.url, created.json.key);
    expect((await user("GET", "/api/v1/wallets")).status).toBe(200);

    const listed = await cli(["keys", "list", "--org", ORG]);
    expect(listed.code).toBe(0);
    expect(listed.json.data.map((k: { id: string }) => k.id)).toContain(created.json.id);
    expect(listed.stdout).not.toContain(created.json.key);

    const revoked = await cli(["keys", "revoke", created.json.id]);
    expect(revoked.code).toBe(0);
    expect(revoked.json).toMatchObject({ id: created.json.id, revokedAt: expect.any(String) });
    expect((await user("GET", "/api/v1/wallets")).status).toBe(401);
  });

  it("create --limit gives the key spending limits (per call / per 24 h), shown on it and enforced; a malformed --limit is a usage error", async () => {
    const args = ["keys", "create", "--org", ORG, "--env", "sandbox", "--scopes", "payments:write"];
    const created = await cli([...args, "--limit", "USDC:100/1000", "--limit", "eur:/5000"]);
    expect(created.code, created.stderr).toBe(0);
    expect(created.json.spendingLimits).toEqual([
      { asset: "USDC", perCall: "100", per24h: "1000" },
      { asset: "EUR", perCall: null, per24h: "5000" },
    ]);
    const paid = await api(server.url, created.json.key)("POST", "/api/v1/payments", {
      amount: "150",
      stablecoin: "USDC",
      chain: "base",
      toAddress: "0x52908400098527886E0F7030069857D2E4169EE7",
    });
    expect(paid.status).toBe(403);
    expect(paid.json.spendingLimit).toMatchObject({ limit: "perCall", maximum: "100" });
    const bad = await cli([...args, "--limit", "USDC:/"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--limit USDC:\/: expected ASSET:PER_CALL\/PER_24H/);
  });

  it("creates a production key", async () => {
    const res = await cli(["keys", "create", "--org", ORG, "--env", "production", "--scopes", "cards:read"]);
    expect(res.code, res.stderr).toBe(0);
    expect(res.json.key).toMatch(/^cp_production_/);
    expect(res.json.actor).toBe(res.json.id);
  });

  it("--print key prints the bare key alone, for `export KEY=$(…)`; a missing field exits 1", async () => {
    const res = await cli(["keys", "create", "--org", ORG, "--env", "sandbox", "--scopes", "wallets:read", "--print", "key"]);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toMatch(/^cp_sandbox_[A-Za-z0-9]+\n$/);
    const wallets = await fetch(`${server.url}/api/v1/wallets`, { headers: { authorization: `Bearer ${res.stdout.trim()}` } });
    expect(wallets.status).toBe(200);
    const missing = await cli(["keys", "create", "--org", ORG, "--env", "sandbox", "--scopes", "wallets:read", "--print", "nope"]);
    expect(missing.code).toBe(1);
    expect(missing.stdout).toBe("");
    expect(missing.stderr).toMatch(/no field "nope"/);
  });

  it("revoking an unknown key exits non-zero with the server's message", async () => {
    const res = await cli(["keys", "revoke", "key_doesnotexist"]);
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/404 not_found/);
    expect(res.stdout).toBe("");
  });

  it("an invalid scope exits non-zero and names the field", async () => {
    const res = await cli(["keys", "create", "--org", ORG, "--env", "sandbox", "--scopes", "wallets:admin"]);
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/400 invalid_request/);
    expect(res.stderr).toMatch(/\/body\/scopes/);
  });
});

describe("connections", () => {
  it("add, list and remove", async () => {
    const added = await cli([
      "connections",
      "add",
      "--org",
      ORG,
      "--env",
      "sandbox",
      "--category",
      "token_issuance",
      "--provider",
      "simulator",
      "--reviewed",
      "--config",
      '{"reserveRatio":"1.02"}',
    ]);
    expect(added.code, added.stderr).toBe(0);
    expect(added.json).toMatchObject({
      category: "token_issuance",
      providerSlug: "simulator",
      reviewed: true,
      config: { reserveRatio: "1.02" },
    });

    const unreviewed = await cli([
      "connections",
      "add",
      "--org",
      ORG,
      "--env",
      "sandbox",
      "--category",
      "custody",
      "--provider",
      "simulator",
    ]);
    expect(unreviewed.json).toMatchObject({ reviewed: false, config: {} });

    const listed = await cli(["connections", "list", "--org", ORG]);
    expect(listed.json.data.map((c: { id: string }) => c.id).sort()).toEqual([added.json.id, unreviewed.json.id].sort());

    const removed = await cli(["connections", "remove", added.json.id]);
    expect(removed.code).toBe(0);
    expect(removed.json).toEqual({ id: added.json.id, removed: true });
    expect((await cli(["connections", "list", "--org", ORG])).json.count).toBe(1);
    const again = await cli(["connections", "remove", added.json.id]);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/404/);
  });
});

describe("credentials and usage", () => {
  it("a bad token exits non-zero with 401", async () => {
    const res = await cli(["keys", "list", "--org", ORG], { ADMIN_TOKEN: "wrong-token" });
    expect(res.code).not.toBe(0);
    expect(res.stderr).toMatch(/401 unauthorized/);
  });

  it("reads ./.data/admin-token when ADMIN_TOKEN is unset", async () => {
    const cwd = path.join(scratch, "with-token");
    mkdirSync(path.join(cwd, ".data"), { recursive: true });
    writeFileSync(path.join(cwd, ".data/admin-token"), `${server.adminToken}\n`);
    const res = await cli(["keys", "list", "--org", ORG], { ADMIN_TOKEN: undefined }, cwd);
    expect(res.code, res.stderr).toBe(0);
    expect(res.json.count).toBeGreaterThan(0);
  });

  it("without any token it exits 2 and says so", async () => {
    const cwd = path.join(scratch, "no-token");
    mkdirSync(cwd, { recursive: true });
    const res = await cli(["keys", "list", "--org", ORG], { ADMIN_TOKEN: undefined }, cwd);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/ADMIN_TOKEN/);
  });

  it("an unreachable server exits 1", async () => {
    const probe = createServer().listen(0, "127.0.0.1");
    await new Promise((resolve) => probe.once("listening", resolve));
    const port = (probe.address() as AddressInfo).port;
    await new Promise((resolve) => probe.close(resolve));
    const res = await cli(["keys", "list", "--org", ORG], { COINPLANE_URL: `http://127.0.0.1:${port}` });
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/cannot reach .*ECONNREFUSED/);
  });

  it.each(["--help", "keys --help", "-h"])("%s prints the usage and exits 0", async (args) => {
    const res = await cli(args.split(" "));
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/Usage: npm run cli -- <command>/);
    expect(res.stdout).toMatch(/keys create --org ID --env sandbox\|production --scopes/);
  });

  it.each([
    ["no command", []],
    ["an unknown command", ["keys", "rotate"]],
    ["a missing option", ["keys", "create", "--org", ORG, "--env", "sandbox"]],
    ["an unknown option", ["keys", "list", "--org", ORG, "--verbose"]],
    ["an option of another command", ["keys", "list", "--org", ORG, "--scopes", "x"]],
    ["a missing id", ["keys", "revoke"]],
    [
      "invalid --config JSON",
      ["connections", "add", "--org", ORG, "--env", "sandbox", "--category", "fx", "--provider", "simulator", "--config", "{x"],
    ],
  ])("%s exits 2 with a usage error", async (_name, args) => {
    const res = await cli(args as string[]);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/^error: /);
    expect(res.stderr).toMatch(/--help/);
  });
});
