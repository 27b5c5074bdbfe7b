// The contract template catalogue (documented under ContractTemplate in the spec).
import { fiatBackedStablecoinSource } from "./fiat-backed-stablecoin.ts";

export type TemplateId = "fiat_backed_stablecoin";

export interface GeneratedContract {
  contractName: string;
  tokenName: string;
  decimals: number;
  source: string;
}

export interface ContractTemplateDef {
  template: TemplateId;
  name: string;
  description: string;
  standard: "ERC-20";
  decimals: number;
  features: string[];
  roles: Array<{ role: string; grants: string }>;
  /** Function signatures the compiled ABI must expose (validate stage). */
  requiredFunctions: string[];
  /** Event signatures the compiled ABI must expose (validate stage). */
  requiredEvents: string[];
  generate(asset: string): GeneratedContract;
}

const STABLECOIN_DECIMALS = 6;

export const TEMPLATES: readonly ContractTemplateDef[] = [
  {
    template: "fiat_backed_stablecoin",
    name: "Fiat-backed stablecoin",
    description:
      "ERC-20 token with 6 decimals for a stablecoin backed 1:1 by fiat reserves: role-restricted mint and burn, pause, " +
      "and a blocklist whose addresses can neither send nor receive. Self-contained Solidity ^0.8.20 without imports; not upgradeable.",
    standard: "ERC-20",
    decimals: STABLECOIN_DECIMALS,
    features: ["erc20", "mint_burn_roles", "pause", "blocklist"],
    roles: [
      { role: "DEFAULT_ADMIN_ROLE", grants: "grant and revoke every role" },
      { role: "MINTER_ROLE", grants: "mint(to, value)" },
      { role: "BURNER_ROLE", grants: "burn(from, value)" },
      { role: "PAUSER_ROLE", grants: "pause() and unpause(): stop transfers, mints and burns" },
      { role: "BLOCKLISTER_ROLE", grants: "setBlocklisted(account, blocked)" },
    ],
    requiredFunctions: [
      "name()",
      "symbol()",
      "decimals()",
      "totalSupply()",
      "balanceOf(address)",
      "allowance(address,address)",
      "transfer(address,uint256)",
      "approve(address,uint256)",
      "transferFrom(address,address,uint256)",
      "mint(address,uint256)",
      "burn(address,uint256)",
      "hasRole(bytes32,address)",
      "grantRole(bytes32,address)",
      "revokeRole(bytes32,address)",
      "MINTER_ROLE()",
      "BURNER_ROLE()",
      "PAUSER_ROLE()",
      "BLOCKLISTER_ROLE()",
      "pause()",
      "unpause()",
      "paused()",
      "setBlocklisted(address,bool)",
      "blocklisted(address)",
    ],
    requiredEvents: ["Transfer(address,address,uint256)", "Approval(address,address,uint256)"],
    generate(asset) {
      const contractName = `${asset}Stablecoin`;
      const tokenName = `${asset} Stablecoin`;
      return {
        contractName,
        tokenName,
        decimals: STABLECOIN_DECIMALS,
        source: fiatBackedStablecoinSource({ contractName, tokenName, asset, decimals: STABLECOIN_DECIMALS }),
      };
    },
  },
];

export function findTemplate(template: string): ContractTemplateDef | undefined {
  return TEMPLATES.find((t) => t.template === template);
}
