// The validate stage's static checks (ValidationCheck in openapi/components/schemas/contracts.yaml): comments and string
// literals are ignored; pragma 0.8.x with x ≥ 20; no imports, selfdestruct, delegatecall, tx.origin or assembly; the
// template's ABI; runtime bytecode ≤ 24 576 bytes (EIP-170) and creation bytecode ≤ 49 152 bytes (EIP-3860).
// Run on a hand-made artifact, so no compiler is needed.
import { describe, expect, it } from "vitest";
import { runStaticChecks, stripCommentsAndStrings } from "../../../../server/domain/contracts/static-checks.ts";
import { findTemplate } from "../../../../server/domain/contracts/templates.ts";

const template = findTemplate("fiat_backed_stablecoin");
if (!template) throw new Error("template missing");

const entry = (type: "function" | "event", signature: string) => {
  const [, name, args] = /^(\w+)\((.*)\)$/.exec(signature) as RegExpExecArray;
  return { type, name, inputs: args ? args.split(",").map((t) => ({ type: t })) : [], outputs: [] as Array<{ type: string }> };
};
const ABI = [
  ...template.requiredFunctions.map((s) => entry("function", s)),
  ...template.requiredEvents.map((s) => entry("event", s)),
  { type: "constructor", inputs: [{ type: "address" }] },
].map((e) => (e.type === "function" && "name" in e && e.name === "decimals" ? { ...e, outputs: [{ type: "uint8" }] } : e));
const SOURCE = "// SPDX-License-Identifier: MIT\npragma solidity ^0.8.24;\ncontract Token { }\n";
const bytes = (n: number) => `0x${"00".repeat(n)}`;

const failing = (source = SOURCE, artifact: Partial<{ abi: unknown[]; bytecode: string; deployedBytecode: string }> = {}) =>
  runStaticChecks(source, { compilerVersion: "0.8.24", abi: ABI, bytecode: bytes(100), deployedBytecode: bytes(80), ...artifact }, template)
    .filter((c) => !c.passed)
    .map((c) => c.id);

describe("runStaticChecks", () => {
  it("passes a clean contract on every check", () => {
    expect(failing()).toEqual([]);
  });

  it.each([
    ["no SPDX line", SOURCE.replace("// SPDX-License-Identifier: MIT\n", ""), ["source.spdx_license"]],
    ["pragma 0.8.19", SOURCE.replace("^0.8.24", "^0.8.19"), ["source.pragma"]],
    ["pragma 0.8.20 (the lowest allowed)", SOURCE.replace("^0.8.24", "0.8.20"), []],
    ["pragma >=0.8.20", SOURCE.replace("^0.8.24", ">=0.8.20"), []],
    ["pragma 0.7.6", SOURCE.replace("^0.8.24", "0.7.6"), ["source.pragma"]],
    ["a pragma only in a comment", SOURCE.replace("pragma solidity ^0.8.24;", "// pragma solidity ^0.8.24;"), ["source.pragma"]],
    ["an import", `${SOURCE}import "./Other.sol";\n`, ["source.no_imports"]],
    ["selfdestruct in code", `${SOURCE}function f() { selfdestruct(payable(0)); }`, ["source.no_selfdestruct"]],
    ["selfdestruct in a line comment", `${SOURCE}// never selfdestruct\n`, []],
    ["selfdestruct in a block comment", `${SOURCE}/* selfdestruct delegatecall assembly */\n`, []],
    ["selfdestruct in a string", `${SOURCE}string constant S = "selfdestruct";\n`, []],
    ["delegatecall", `${SOURCE}function f(address a) { a.delegatecall(""); }`, ["source.no_delegatecall"]],
    ["tx.origin, even spaced", `${SOURCE}function f() { require(tx . origin == msg.sender); }`, ["source.no_tx_origin"]],
    ["inline assembly", `${SOURCE}function f() { assembly { } }`, ["source.no_inline_assembly"]],
  ])("%s", (_name, source, ids) => {
    expect(failing(source)).toEqual(ids);
  });

  it.each([
    ["runtime bytecode exactly 24 576 bytes", { deployedBytecode: bytes(24_576) }, []],
    ["runtime bytecode 24 577 bytes", { deployedBytecode: bytes(24_577) }, ["bytecode.runtime_size"]],
    ["creation bytecode exactly 49 152 bytes", { bytecode: bytes(49_152) }, []],
    ["creation bytecode 49 153 bytes", { bytecode: bytes(49_153) }, ["bytecode.initcode_size"]],
  ])("%s", (_name, artifact, ids) => {
    expect(failing(SOURCE, artifact)).toEqual(ids);
  });

  const without = (name: string) => ABI.filter((e) => !("name" in e) || e.name !== name);
  it.each([
    ["no transfer function", without("transfer"), ["abi.erc20"]],
    ["no Approval event", without("Approval"), ["abi.erc20"]],
    ["no mint", without("mint"), ["abi.mint_burn_roles"]],
    ["no MINTER_ROLE", without("MINTER_ROLE"), ["abi.mint_burn_roles"]],
    ["no unpause", without("unpause"), ["abi.pause"]],
    ["no blocklisted", without("blocklisted"), ["abi.blocklist"]],
    [
      "decimals() returning uint256",
      ABI.map((e) => ("name" in e && e.name === "decimals" ? { ...e, outputs: [{ type: "uint256" }] } : e)),
      ["abi.decimals"],
    ],
    [
      "a constructor taking (address,uint256)",
      ABI.map((e) => (e.type === "constructor" ? { ...e, inputs: [{ type: "address" }, { type: "uint256" }] } : e)),
      ["abi.constructor"],
    ],
    ["no constructor", ABI.filter((e) => e.type !== "constructor"), ["abi.constructor"]],
    [
      "mint with other parameter types",
      ABI.map((e) => ("name" in e && e.name === "mint" ? { ...e, inputs: [{ type: "address" }, { type: "uint128" }] } : e)),
      ["abi.mint_burn_roles"],
    ],
  ])("%s", (_name, abi, ids) => {
    expect(failing(SOURCE, { abi })).toEqual(ids);
  });

  it("names what is missing", () => {
    const check = runStaticChecks(
      SOURCE,
      { compilerVersion: "x", abi: without("pause"), bytecode: bytes(1), deployedBytecode: bytes(1) },
      template,
    );
    expect(check.find((c) => c.id === "abi.pause")?.detail).toBe("missing function: pause()");
  });
});

describe("stripCommentsAndStrings", () => {
  it.each([
    ["a // comment\nb", "a  \nb"],
    ["a /* x\ny */ b", "a   b"],
    ['s = "a // not a comment";', 's = "";'],
    ["c = 'it\\'s';", "c = '';"],
    ['x = "a" /* y */ + "b"', 'x = ""   + ""'],
  ])("%j → %j", (source, stripped) => {
    expect(stripCommentsAndStrings(source)).toBe(stripped);
  });
});
