// The contract lifecycle over HTTP: generate → compile (solc-js) → validate → simulate (in-process EVM) → deploy (sandbox
// chain) → verify → launch (issuer), the state machine's 409s, failed stages recorded, and fail-closed networks.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { INITIAL_SUPPLY, SIGNER, TREASURY } from "../helpers/contracts.ts";
import { api, startTestServer, type TestServer } from "../helpers/test-server.ts";
import { idem } from "../helpers/v2.ts";

let server: TestServer;
let call: ReturnType<typeof api>;
let readOnly: ReturnType<typeof api>;

const BASE = "/api/v2/agent/contracts";
const stage = (projectId: string, name: string, body?: unknown, c = call) => c("POST", `${BASE}/${projectId}/${name}`, body, idem());

async function generate(body: object = {}) {
  const res = await call("POST", `${BASE}/generate`, body, idem());
  expect(res.status, res.text).toBe(201);
  return res.json.projectId as string;
}

beforeAll(async () => {
  server = await startTestServer();
  call = api(server.url, (await server.createKey({ scopes: ["projects:write"], actor: "alice" })).key);
  readOnly = api(server.url, (await server.createKey({ scopes: ["projects:read"] })).key);
});
afterAll(() => server?.close());

describe("GET /contracts/templates", () => {
  it("lists the fiat-backed stablecoin template (ERC-20, 6 decimals, mint/burn roles, pause, blocklist)", async () => {
    const res = await readOnly("GET", `${BASE}/templates`);
    expect(res.status).toBe(200);
    const template = res.json.data.find((t: { template: string }) => t.template === "fiat_backed_stablecoin");
    expect(template).toMatchObject({ standard: "ERC-20", decimals: 6 });
    expect(template.features).toEqual(expect.arrayContaining(["erc20", "mint_burn_roles", "pause", "blocklist"]));
    expect(template.roles.map((r: { role: string }) => r.role)).toEqual(
      expect.arrayContaining(["MINTER_ROLE", "BURNER_ROLE", "PAUSER_ROLE", "BLOCKLISTER_ROLE"]),
    );
  });
});

describe("the lifecycle from generate to launch", () => {
  it("runs every stage in order, records each stage's output, and registers an issuer", async () => {
    const generated = await call(
      "POST",
      `${BASE}/generate`,
      { template: "fiat_backed_stablecoin", asset: "LCUSD", network: "sandbox" },
      idem(),
    );
    expect(generated.status).toBe(201);
    expect(generated.json).toMatchObject({
      stage: "generated",
      asset: "LCUSD",
      tokenName: "LCUSD Stablecoin",
      decimals: 6,
      contractName: "LCUSDStablecoin",
      issuerId: null,
    });
    expect(generated.json.stages.map((s: { status: string }) => s.status)).toEqual([
      "completed",
      "pending",
      "pending",
      "pending",
      "pending",
      "pending",
      "pending",
    ]);
    expect(generated.json.source).toContain("contract LCUSDStablecoin");
    const projectId = generated.json.projectId;

    const compiled = await stage(projectId, "compile");
    expect(compiled.status, compiled.text).toBe(200);
    expect(compiled.json).toMatchObject({ stage: "compile", status: "completed", projectStage: "compiled", version: 2 });
    expect(compiled.json.output.compilerVersion).toMatch(/^0\.8\.30/);
    expect(compiled.json.output.deployedBytecode).toMatch(/^0x[0-9a-f]+$/);
    expect(compiled.json.output.methodIdentifiers["mint(address,uint256)"]).toBe("40c10f19");

    const validated = await stage(projectId, "validate");
    expect(validated.status, validated.text).toBe(200);
    expect(validated.json.output.passed).toBe(true);
    expect(validated.json.output.checks.length).toBeGreaterThanOrEqual(14);

    const simulated = await stage(projectId, "simulate");
    expect(simulated.status, simulated.text).toBe(200);
    const flows = simulated.json.output.flows as Array<{
      flow: string;
      passed: boolean;
      transactions: Array<{ expected: string; result: string }>;
    }>;
    expect(flows.map((f) => f.flow)).toEqual(["deploy", "roles", "mint", "transfer", "burn", "pause", "blocklist"]);
    expect(flows.every((f) => f.passed)).toBe(true);
    // The negative paths really reverted on the EVM.
    expect(
      flows.flatMap((f) => f.transactions).filter((t) => t.expected === "revert" && t.result === "revert").length,
    ).toBeGreaterThanOrEqual(6);

    const logBefore = await server.db.prisma.sandboxChainTransaction.count();
    const deployed = await stage(projectId, "deploy", { signers: [SIGNER], initialSupply: { to: TREASURY, amountMinor: INITIAL_SUPPLY } });
    expect(deployed.status, deployed.text).toBe(200);
    const deployment = deployed.json.output;
    expect(deployment).toMatchObject({
      chain: "sandbox",
      chainId: 7357001,
      signers: [SIGNER],
      initialSupply: { to: TREASURY, amountMinor: INITIAL_SUPPLY },
    });
    expect(deployment.contractAddress).toMatch(/^0x[0-9a-fA-F]{40}$/);
    expect(deployment.transactions[0].description).toBe("deploy LCUSDStablecoin");
    // Every deployment transaction is in the sandbox chain's persisted log.
    const log = await server.db.prisma.sandboxChainTransaction.findMany({ where: { projectId }, orderBy: { seq: "asc" } });
    expect(log.map((r) => r.hash)).toEqual(deployment.transactions.map((t: { hash: string }) => t.hash));
    expect(await server.db.prisma.sandboxChainTransaction.count()).toBe(logBefore + deployment.transactions.length);
    expect(log[0]?.contractAddress?.toLowerCase()).toBe(deployment.contractAddress.toLowerCase());

    const verified = await stage(projectId, "verify");
    expect(verified.status, verified.text).toBe(200);
    expect(verified.json.output).toMatchObject({ match: true, contractAddress: deployment.contractAddress });
    expect(verified.json.output.deployedCodeHash).toBe(verified.json.output.compiledCodeHash);

    const launched = await stage(projectId, "launch");
    expect(launched.status, launched.text).toBe(200);
    expect(launched.json.output).toMatchObject({
      projectId,
      contractAddress: deployment.contractAddress,
      chain: "sandbox",
      asset: "LCUSD",
      decimals: 6,
      signers: [SIGNER],
    });
    const issuer = await server.db.prisma.issuer.findUnique({ where: { id: launched.json.output.issuerId } });
    expect(issuer).toMatchObject({
      organizationId: "org_test",
      environment: "sandbox",
      projectId,
      contractAddress: deployment.contractAddress,
    });

    const project = await readOnly("GET", `${BASE}/${projectId}`);
    expect(project.status).toBe(200);
    expect(project.json).toMatchObject({ stage: "launched", version: 7, issuerId: launched.json.output.issuerId });
    expect(project.json.stages.map((s: { status: string }) => s.status)).toEqual(Array(7).fill("completed"));
    expect(project.json.stages[4].output.contractAddress).toBe(deployment.contractAddress);
    expect(project.json.stages[6].output.issuerId).toBe(launched.json.output.issuerId);

    // Launched is final: every stage now answers 409.
    for (const name of ["compile", "validate", "simulate", "verify", "launch"]) {
      const again = await stage(projectId, name);
      expect(again.status, name).toBe(409);
      expect(again.json.code).toBe("STATE_CONFLICT");
    }
  });
});

describe("the state machine", () => {
  it.each([
    ["validate", "compiled"],
    ["simulate", "validated"],
    ["deploy", "simulated"],
    ["verify", "deployed"],
    ["launch", "verified"],
  ])("refuses %s on a generated project with 409 STATE_CONFLICT (needs %s)", async (name, needed) => {
    const projectId = await generate();
    const res = await stage(projectId, name, name === "deploy" ? { signers: [SIGNER] } : undefined);
    expect(res.status).toBe(409);
    expect(res.json).toMatchObject({ code: "STATE_CONFLICT", stage: name, projectStage: "generated", requiredStage: needed });
    expect((await server.db.prisma.contractProject.findUnique({ where: { id: projectId } }))?.stage).toBe("generated");
  });

  it("refuses to run a completed stage again", async () => {
    const projectId = await generate();
    expect((await stage(projectId, "compile")).status).toBe(200);
    const again = await stage(projectId, "compile");
    expect(again.status).toBe(409);
    expect(again.json.detail).toMatch(/already run/);
  });

  it("404 for an unknown project and for another organization's project", async () => {
    const projectId = await generate();
    const other = api(server.url, (await server.createKey({ organizationId: "org_other", scopes: ["projects:write"] })).key);
    expect((await stage("cprj_doesnotexist", "compile")).status).toBe(404);
    expect((await stage(projectId, "compile", undefined, other)).json.code).toBe("NOT_FOUND");
    expect((await other("GET", `${BASE}/${projectId}`)).status).toBe(404);
  });

  it("needs projects:write to run a stage and projects:read to read", async () => {
    const projectId = await generate();
    expect((await stage(projectId, "compile", undefined, readOnly)).status).toBe(403);
    const wallets = api(server.url, (await server.createKey({ scopes: ["wallets:write"] })).key);
    expect((await wallets("GET", `${BASE}/${projectId}`)).status).toBe(403);
  });
});

describe("failed stages", () => {
  it("compile: solc's errors come back as 422 COMPILATION_FAILED; the run is recorded and compile can run again", async () => {
    const projectId = await generate();
    const broken =
      "// SPDX-License-Identifier: MIT\npragma solidity ^0.8.20;\ncontract CPUSDStablecoin {\n    uint8 public constant decimals = 6\n}\n";
    const res = await stage(projectId, "compile", { source: broken });
    expect(res.status).toBe(422);
    expect(res.json.code).toBe("COMPILATION_FAILED");
    expect(res.json.compilerErrors[0]).toMatchObject({ severity: "error", type: "ParserError" });
    expect(res.json.compilerErrors[0].formattedMessage).toContain("Contract.sol:5");
    const project = await readOnly("GET", `${BASE}/${projectId}`);
    expect(project.json.stage).toBe("generated");
    expect(project.json.stages[1]).toMatchObject({ name: "compile", status: "failed" });
    expect(project.json.stages[1].output.failure.compilerErrors[0].type).toBe("ParserError");
    expect((await stage(projectId, "compile")).status).toBe(200);
  });

  it("compile: a source without the project's contract is a compilation failure", async () => {
    const projectId = await generate();
    const res = await stage(projectId, "compile", {
      source: "// SPDX-License-Identifier: MIT\npragma solidity ^0.8.20;\ncontract Other {}\n",
    });
    expect(res.status).toBe(422);
    expect(res.json.compilerErrors[0].type).toBe("ContractNotFound");
  });

  it("validate: an edited source that drops the blocklist and uses tx.origin fails the documented checks", async () => {
    const projectId = await generate();
    const { source } = (await readOnly("GET", `${BASE}/${projectId}`)).json as { source: string };
    const edited = source
      .replace(/ {4}function setBlocklisted[\s\S]*?\n {4}}\n/, "")
      .replace(
        "if (to == address(0)) revert ZeroAddress();\n        if (blocklisted[to]) revert BlockedAddress(to);\n        totalSupply",
        "require(tx.origin != address(0));\n        totalSupply",
      );
    expect(edited).not.toBe(source);
    const compiled = await stage(projectId, "compile", { source: edited });
    expect(compiled.status, compiled.text).toBe(200);
    expect(compiled.json.output.sourceOrigin).toBe("edited");
    const res = await stage(projectId, "validate");
    expect(res.status).toBe(422);
    expect(res.json).toMatchObject({ code: "PRECHECK_FAILED", stage: "validate" });
    expect(res.json.findings.map((c: { id: string }) => c.id).sort()).toEqual(["abi.blocklist", "source.no_tx_origin"]);
    const project = await readOnly("GET", `${BASE}/${projectId}`);
    expect(project.json).toMatchObject({ stage: "compiled", sourceSha256: compiled.json.output.sourceSha256 });
    expect(project.json.stages[2]).toMatchObject({ name: "validate", status: "failed" });
  });

  it("deploy: the zero address as a signer is 422 PRECHECK_FAILED and nothing reaches the chain", async () => {
    const projectId = await generate();
    for (const name of ["compile", "validate", "simulate"]) expect((await stage(projectId, name)).status).toBe(200);
    const before = await server.db.prisma.sandboxChainTransaction.count();
    const res = await stage(projectId, "deploy", { signers: ["0x0000000000000000000000000000000000000000"] });
    expect(res.status).toBe(422);
    expect(res.json.code).toBe("PRECHECK_FAILED");
    expect(await server.db.prisma.sandboxChainTransaction.count()).toBe(before);
    expect((await stage(projectId, "deploy", { signers: [SIGNER] })).status).toBe(200);
  });
});

describe("networks without a reviewed deployment connection fail closed", () => {
  it.each(["base_sepolia", "ethereum", "polygon"])(
    "generate for %s answers 424 PROVIDER_NOT_CONNECTED and creates nothing",
    async (network) => {
      const before = await server.db.prisma.contractProject.count();
      const res = await call("POST", `${BASE}/generate`, { network }, idem());
      expect(res.status).toBe(424);
      expect(res.json.code).toBe("PROVIDER_NOT_CONNECTED");
      expect(await server.db.prisma.contractProject.count()).toBe(before);
    },
  );

  it("a production key cannot target the sandbox chain", async () => {
    const production = api(server.url, (await server.createKey({ environment: "production", scopes: ["projects:write"] })).key);
    const res = await production("POST", `${BASE}/generate`, {}, idem());
    expect(res.status).toBe(424);
  });

  it("generation is deterministic", async () => {
    const a = await call("POST", `${BASE}/generate`, { asset: "DETUSD" }, idem());
    const b = await call("POST", `${BASE}/generate`, { asset: "DETUSD" }, idem());
    expect(a.json.sourceSha256).toBe(b.json.sourceSha256);
    expect(a.json.projectId).not.toBe(b.json.projectId);
  });
});
