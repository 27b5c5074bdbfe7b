// The simulate stage's key flows, on a fresh in-process EVM (not the sandbox chain). Deterministic: fixed accounts,
// fixed amounts; documented under SimulateOutput.
import type { VM } from "@ethereumjs/vm";
import { type Abi, encodeDeployData, encodeFunctionData, type Hex } from "viem";
import { addressOfKey, applyTx, newVm, readFunction, sandboxKey, signTx, toAddress } from "../../chain/evm.ts";
import type { components } from "../../generated/openapi.ts";
import type { ContractArtifact } from "./compile-contract.ts";

type Flow = components["schemas"]["SimulationFlow"];
type SimTx = components["schemas"]["SimulatedTransaction"];
type Assertion = components["schemas"]["SimulationAssertion"];
type Actor = SimTx["from"];
export type SimulateOutput = components["schemas"]["SimulateOutput"];

const ACTORS: Actor[] = ["admin", "operator", "alice", "bob"];

export interface SimulationSubject {
  artifact: ContractArtifact;
  asset: string;
  tokenName: string;
  decimals: number;
}

class Harness {
  readonly vm: VM;
  readonly abi: Abi;
  readonly keys = Object.fromEntries(ACTORS.map((a) => [a, sandboxKey(`simulation:${a}`)])) as Record<Actor, Uint8Array>;
  readonly addresses = Object.fromEntries(ACTORS.map((a) => [a, addressOfKey(this.keys[a])])) as Record<Actor, string>;
  contract = "";
  constructor(vm: VM, abi: Abi) {
    this.vm = vm;
    this.abi = abi;
  }

  async send(
    from: Actor,
    action: string,
    data: Hex,
    expected: "success" | "revert",
    to: string | undefined = this.contract,
  ): Promise<SimTx & { created: string | null }> {
    const account = await this.vm.stateManager.getAccount(toAddress(this.addresses[from]));
    const tx = signTx(this.vm, this.keys[from], account?.nonce ?? 0n, { to, data, description: action });
    const applied = await applyTx(this.vm, tx, this.abi);
    return {
      action,
      from,
      expected,
      result: applied.error ? "revert" : "success",
      revertReason: applied.error,
      gasUsed: applied.gasUsed.toString(),
      created: applied.contractAddress,
    };
  }

  call(from: Actor, action: string, functionName: string, args: readonly unknown[], expected: "success" | "revert" = "success") {
    return this.send(
      from,
      action,
      encodeFunctionData({ abi: this.abi, functionName, args } as Parameters<typeof encodeFunctionData>[0]),
      expected,
    );
  }

  async read(functionName: string, args: readonly unknown[] = []): Promise<string> {
    try {
      return String(await readFunction(this.vm, this.contract, this.abi, functionName, args));
    } catch (error) {
      return `error: ${(error as Error).message}`;
    }
  }
}

const assertion = (description: string, expected: string, actual: string): Assertion => ({
  description,
  expected,
  actual,
  passed: expected === actual,
});

function flow(name: Flow["flow"], description: string, transactions: SimTx[], assertions: Assertion[]): Flow {
  const passed = transactions.every((t) => t.result === t.expected) && assertions.every((a) => a.passed);
  return { flow: name, description, passed, transactions, assertions };
}

const strip = ({ created: _created, ...tx }: SimTx & { created: string | null }): SimTx => tx;

export async function simulateToken(subject: SimulationSubject): Promise<SimulateOutput> {
  const abi = subject.artifact.abi as Abi;
  const h = new Harness(await newVm(), abi);
  const unit = 10n ** BigInt(subject.decimals);
  const amount = (whole: bigint) => whole * unit;
  const fmt = (whole: bigint) => `${whole}.${"0".repeat(subject.decimals)}`;
  const { alice, bob, operator } = h.addresses;
  const flows: Flow[] = [];

  // deploy
  const deployData = encodeDeployData({ abi, bytecode: subject.artifact.bytecode as Hex, args: [h.addresses.admin] } as Parameters<
    typeof encodeDeployData
  >[0]);
  const deployed = await h.send("admin", "admin deploys the token with admin as DEFAULT_ADMIN_ROLE", deployData, "success", undefined);
  h.contract = deployed.created ?? "";
  if (!h.contract) {
    flows.push(flow("deploy", "Deploy and read name, symbol and decimals", [strip(deployed)], []));
    return { evm: "@ethereumjs/vm cancun", passed: false, flows };
  }
  flows.push(
    flow(
      "deploy",
      "Deploy and read name, symbol and decimals",
      [strip(deployed)],
      [
        assertion("name()", subject.tokenName, await h.read("name")),
        assertion("symbol()", subject.asset, await h.read("symbol")),
        assertion("decimals()", String(subject.decimals), await h.read("decimals")),
        assertion("totalSupply()", "0", await h.read("totalSupply")),
      ],
    ),
  );

  // roles
  const roles = ["MINTER_ROLE", "BURNER_ROLE", "PAUSER_ROLE", "BLOCKLISTER_ROLE"];
  const roleIds: Record<string, string> = {};
  for (const role of roles) roleIds[role] = await h.read(role);
  const grants = [];
  for (const role of roles) grants.push(await h.call("admin", `admin grants ${role} to operator`, "grantRole", [roleIds[role], operator]));
  grants.push(await h.call("alice", "alice (no MINTER_ROLE) tries to mint 1.000000 to herself", "mint", [alice, amount(1n)], "revert"));
  const roleAssertions: Assertion[] = [];
  for (const role of roles)
    roleAssertions.push(assertion(`hasRole(${role}, operator)`, "true", await h.read("hasRole", [roleIds[role], operator])));
  roleAssertions.push(assertion("totalSupply()", "0", await h.read("totalSupply")));
  flows.push(
    flow(
      "roles",
      "Grant the operator every operational role; an account without MINTER_ROLE cannot mint",
      grants.map(strip),
      roleAssertions,
    ),
  );

  // mint
  const mint = await h.call("operator", `operator mints ${fmt(1000n)} to alice`, "mint", [alice, amount(1000n)]);
  flows.push(
    flow(
      "mint",
      "Mint to a holder",
      [strip(mint)],
      [
        assertion("totalSupply()", String(amount(1000n)), await h.read("totalSupply")),
        assertion("balanceOf(alice)", String(amount(1000n)), await h.read("balanceOf", [alice])),
      ],
    ),
  );

  // transfer
  const transfer = await h.call("alice", `alice transfers ${fmt(250n)} to bob`, "transfer", [bob, amount(250n)]);
  flows.push(
    flow(
      "transfer",
      "Transfer between holders",
      [strip(transfer)],
      [
        assertion("balanceOf(alice)", String(amount(750n)), await h.read("balanceOf", [alice])),
        assertion("balanceOf(bob)", String(amount(250n)), await h.read("balanceOf", [bob])),
        assertion("totalSupply()", String(amount(1000n)), await h.read("totalSupply")),
      ],
    ),
  );

  // burn
  const burns = [
    await h.call("operator", `operator burns ${fmt(100n)} from bob`, "burn", [bob, amount(100n)]),
    await h.call(
      "operator",
      `operator tries to burn ${fmt(1000n)} from bob (more than his balance)`,
      "burn",
      [bob, amount(1000n)],
      "revert",
    ),
  ];
  flows.push(
    flow("burn", "Burn from a holder; never more than the holder's balance", burns.map(strip), [
      assertion("balanceOf(bob)", String(amount(150n)), await h.read("balanceOf", [bob])),
      assertion("totalSupply()", String(amount(900n)), await h.read("totalSupply")),
    ]),
  );

  // pause
  const pause = [await h.call("operator", "operator pauses the token", "pause", [])];
  const pausedDuring = await h.read("paused");
  pause.push(await h.call("alice", `alice tries to transfer ${fmt(1n)} to bob while paused`, "transfer", [bob, amount(1n)], "revert"));
  pause.push(await h.call("operator", `operator tries to mint ${fmt(1n)} while paused`, "mint", [alice, amount(1n)], "revert"));
  pause.push(await h.call("operator", "operator unpauses the token", "unpause", []));
  pause.push(await h.call("alice", `alice transfers ${fmt(1n)} to bob after unpause`, "transfer", [bob, amount(1n)]));
  flows.push(
    flow("pause", "Pause stops transfers and mints; unpause resumes them", pause.map(strip), [
      assertion("paused() while paused", "true", pausedDuring),
      assertion("paused() after unpause", "false", await h.read("paused")),
      assertion("balanceOf(bob)", String(amount(151n)), await h.read("balanceOf", [bob])),
    ]),
  );

  // blocklist
  const block = [await h.call("operator", "operator blocklists bob", "setBlocklisted", [bob, true])];
  const blockedDuring = await h.read("blocklisted", [bob]);
  block.push(await h.call("alice", `alice tries to transfer ${fmt(1n)} to blocklisted bob`, "transfer", [bob, amount(1n)], "revert"));
  block.push(await h.call("bob", `blocklisted bob tries to transfer ${fmt(1n)} to alice`, "transfer", [alice, amount(1n)], "revert"));
  block.push(await h.call("operator", "operator removes bob from the blocklist", "setBlocklisted", [bob, false]));
  block.push(await h.call("bob", `bob transfers ${fmt(1n)} to alice after removal`, "transfer", [alice, amount(1n)]));
  flows.push(
    flow("blocklist", "A blocklisted address can neither receive nor send; removed, it can again", block.map(strip), [
      assertion("blocklisted(bob) while blocked", "true", blockedDuring),
      assertion("balanceOf(bob)", String(amount(150n)), await h.read("balanceOf", [bob])),
      assertion("totalSupply()", String(amount(900n)), await h.read("totalSupply")),
    ]),
  );

  return { evm: "@ethereumjs/vm cancun", passed: flows.every((f) => f.passed), flows };
}
