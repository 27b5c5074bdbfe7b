// The validate stage's static checks on the source, the ABI and the bytecode (documented under ValidationCheck).
import type { components } from "../../generated/openapi.ts";
import type { ContractArtifact } from "./compile-contract.ts";
import type { ContractTemplateDef } from "./templates.ts";

type Check = components["schemas"]["ValidationCheck"];

interface AbiParam {
  type: string;
  components?: AbiParam[];
}
interface AbiEntry {
  type: string;
  name?: string;
  inputs?: AbiParam[];
  outputs?: AbiParam[];
}

const MAX_RUNTIME_BYTES = 24_576;
const MAX_INITCODE_BYTES = 49_152;

/** Comments and string literals removed, so a word in a comment or a string does not count as code. */
export function stripCommentsAndStrings(source: string): string {
  return source.replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*|"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'/g, (m) =>
    m.startsWith('"') ? '""' : m.startsWith("'") ? "''" : " ",
  );
}

const typeOf = (p: AbiParam): string =>
  p.type.startsWith("tuple") ? `(${(p.components ?? []).map(typeOf).join(",")})${p.type.slice(5)}` : p.type;
const signature = (e: AbiEntry) => `${e.name}(${(e.inputs ?? []).map(typeOf).join(",")})`;

function check(id: string, description: string, failure: string | null): Check {
  return { id, description, passed: failure === null, detail: failure };
}

function requireSignatures(abi: AbiEntry[], kind: "function" | "event", wanted: string[]): string | null {
  const have = new Set(abi.filter((e) => e.type === kind).map(signature));
  const missing = wanted.filter((s) => !have.has(s));
  return missing.length === 0 ? null : `missing ${kind}${missing.length === 1 ? "" : "s"}: ${missing.join(", ")}`;
}

export function runStaticChecks(source: string, artifact: ContractArtifact, template: ContractTemplateDef): Check[] {
  const code = stripCommentsAndStrings(source);
  const abi = artifact.abi as AbiEntry[];
  const fn = template.requiredFunctions;
  const pick = (names: string[]) => fn.filter((s) => names.some((n) => s.startsWith(`${n}(`)));
  const absent = (pattern: RegExp, what: string) => (pattern.test(code) ? `the source uses ${what}` : null);
  const pragma = /pragma\s+solidity\s+[\^>=]*\s*0\.8\.(\d+)\s*;/.exec(code);
  const decimals = abi.find((e) => e.type === "function" && e.name === "decimals" && (e.inputs ?? []).length === 0);
  const ctor = abi.find((e) => e.type === "constructor");
  const runtime = (artifact.deployedBytecode.length - 2) / 2;
  const initcode = (artifact.bytecode.length - 2) / 2;
  return [
    check(
      "source.spdx_license",
      "An SPDX-License-Identifier line",
      /\/\/\s*SPDX-License-Identifier:\s*\S+/.test(source) ? null : "no SPDX-License-Identifier line",
    ),
    check(
      "source.pragma",
      "pragma solidity pinned to 0.8.x with x ≥ 20",
      pragma && Number(pragma[1]) >= 20 ? null : "no pragma solidity 0.8.x (x ≥ 20)",
    ),
    check("source.no_imports", "Self-contained: no import statements", absent(/(^|[;{}\s])import\s/, "import")),
    check("source.no_selfdestruct", "No selfdestruct", absent(/\bselfdestruct\b/, "selfdestruct")),
    check("source.no_delegatecall", "No delegatecall", absent(/\bdelegatecall\b/, "delegatecall")),
    check("source.no_tx_origin", "No tx.origin", absent(/\btx\s*\.\s*origin\b/, "tx.origin")),
    check("source.no_inline_assembly", "No inline assembly", absent(/\bassembly\b/, "inline assembly")),
    check(
      "abi.erc20",
      "The ERC-20 functions and events",
      requireSignatures(
        abi,
        "function",
        pick(["name", "symbol", "decimals", "totalSupply", "balanceOf", "allowance", "transfer", "approve", "transferFrom"]),
      ) ?? requireSignatures(abi, "event", template.requiredEvents),
    ),
    check(
      "abi.mint_burn_roles",
      "Role-restricted mint and burn",
      requireSignatures(abi, "function", pick(["mint", "burn", "MINTER_ROLE", "BURNER_ROLE", "hasRole", "grantRole", "revokeRole"])),
    ),
    check("abi.pause", "Pause and unpause", requireSignatures(abi, "function", pick(["pause", "unpause", "paused", "PAUSER_ROLE"]))),
    check("abi.blocklist", "A blocklist", requireSignatures(abi, "function", pick(["setBlocklisted", "blocklisted", "BLOCKLISTER_ROLE"]))),
    check(
      "abi.constructor",
      "constructor(address admin)",
      ctor && (ctor.inputs ?? []).map(typeOf).join(",") === "address" ? null : "the constructor must take exactly (address admin)",
    ),
    check(
      "abi.decimals",
      "decimals() returns uint8",
      decimals && (decimals.outputs ?? []).map(typeOf).join(",") === "uint8" ? null : "decimals() must return uint8",
    ),
    check(
      "bytecode.runtime_size",
      `Runtime bytecode ≤ ${MAX_RUNTIME_BYTES} bytes (EIP-170)`,
      runtime <= MAX_RUNTIME_BYTES ? null : `runtime bytecode is ${runtime} bytes`,
    ),
    check(
      "bytecode.initcode_size",
      `Creation bytecode ≤ ${MAX_INITCODE_BYTES} bytes (EIP-3860)`,
      initcode <= MAX_INITCODE_BYTES ? null : `creation bytecode is ${initcode} bytes`,
    ),
  ];
}
