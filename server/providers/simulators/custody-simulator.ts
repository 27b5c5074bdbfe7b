// Sandbox custody: a simulated custodian. `operations` serve providers/invoke (stateless); `capabilities.custody` serves the
// custody endpoints and the corridor's custody leg, and keeps the custodian's books in its own tables (SimCustodyWallet,
// SimCustodyTransfer) so that balances move and transfers settle. Deterministic; magic values documented in the spec.
import { createHash } from "node:crypto";
import { base58 } from "@scure/base";
import { toChecksumAddress } from "../../domain/chains/addresses.ts";
import { ASSET_DECIMALS, isEvmChain, NATIVE_ASSET } from "../../domain/custody/custody-assets.ts";
import { ServiceError } from "../../errors/service-error.ts";
import type { CustodyApi, CustodyCallContext, ProviderCustodyTransfer } from "../capabilities/custody.ts";
import { ProviderUnavailableError } from "../capabilities/provider-unavailable.ts";
import { type ProviderAdapter, ProviderExecutionError } from "../provider-adapter.ts";
import { parseObjectConfig } from "./config.ts";
import { FAILING_ADDRESS, failOnMagic } from "./magic-values.ts";

/** Every simulated custody wallet starts with this balance of each asset (minor units, 6 decimals). */
export const SIMULATED_STARTING_BALANCE_MINOR = "1000000000000";

/** Every simulated vault opens with 1 000 000 USDC and 10 units of its chain's native asset. */
export const SIMULATED_NATIVE_UNITS = 10n;
/** The vault the corridor rehearsal sends from when no custody wallet is named: unlimited funds, no balance check. */
export const REHEARSAL_VAULT_ID = "sim_vault_rehearsal";
/** A wallet label or transfer note starting with this makes the simulated custodian fail the write (502). */
export const TIMEOUT_PREFIX = "TIMEOUT";
/** A transfer note starting with this makes every read of the submitted transfer fail (502). */
export const UNREACHABLE_PREFIX = "UNREACHABLE";

const digest = (text: string) => createHash("sha256").update(text).digest();
const hex = (text: string, length: number) => digest(text).toString("hex").slice(0, length);

function deterministicAddress(chain: string, seed: string): string {
  if (isEvmChain(chain)) return toChecksumAddress(`0x${hex(`address|${seed}`, 40)}`);
  return base58.encode(digest(`address|${seed}`));
}

function deterministicTxHash(chain: string, seed: string): string {
  if (isEvmChain(chain)) return `0x${hex(`tx|${seed}`, 64)}`;
  return base58.encode(Buffer.concat([digest(`tx1|${seed}`), digest(`tx2|${seed}`)]));
}

/** Works on the simulator's books inside the caller's transaction, behind a savepoint: a database failure means the
 * simulated custodian cannot be reached (ProviderUnavailableError), and the caller's transaction stays usable. */
async function books<T>(ctx: CustodyCallContext, work: () => Promise<T>): Promise<T> {
  await ctx.db.$executeRawUnsafe("SAVEPOINT sim_custody_books");
  try {
    const result = await work();
    await ctx.db.$executeRawUnsafe("RELEASE SAVEPOINT sim_custody_books");
    return result;
  } catch (error) {
    await ctx.db.$executeRawUnsafe("ROLLBACK TO SAVEPOINT sim_custody_books");
    if (error instanceof ServiceError || error instanceof ProviderExecutionError) throw error;
    throw new ProviderUnavailableError("the simulated custodian's books cannot be read", { cause: error });
  }
}

function startingBalance(chain: string, asset: string): bigint {
  if (asset === "USDC") return BigInt(SIMULATED_STARTING_BALANCE_MINOR);
  if (NATIVE_ASSET[chain] === asset) return SIMULATED_NATIVE_UNITS * 10n ** BigInt(ASSET_DECIMALS[asset] ?? 18);
  return 0n;
}

/** Settled (completed) and reserved (submitted, not yet failed) totals of a vault's asset. */
async function spent(ctx: CustodyCallContext, providerWalletId: string, asset: string): Promise<{ completed: bigint; reserved: bigint }> {
  const rows = await ctx.db.simCustodyTransfer.groupBy({
    by: ["state"],
    where: { providerWalletId, asset, outcome: null },
    _sum: { amountMinor: true },
  });
  const sum = (state: string) => BigInt(rows.find((r) => r.state === state)?._sum.amountMinor?.toFixed(0) ?? "0");
  return { completed: sum("completed"), reserved: sum("submitted") };
}

const custodyCapability: CustodyApi = {
  findWallet: (ctx, { idempotencyKey }) =>
    books(ctx, async () => {
      const row = await ctx.db.simCustodyWallet.findUnique({ where: { idempotencyKey } });
      return row ? { providerWalletId: row.id, address: row.address } : null;
    }),

  async createWallet(ctx, { idempotencyKey, chain, type, label }) {
    if (label.startsWith(TIMEOUT_PREFIX)) throw new ProviderExecutionError(`simulated custodian timeout (label ${TIMEOUT_PREFIX}…)`);
    return books(ctx, async () => {
      const id = `sim_vault_${hex(`vault|${idempotencyKey}`, 24)}`;
      const row = await ctx.db.simCustodyWallet.upsert({
        where: { idempotencyKey },
        create: { id, idempotencyKey, chain, type, label, address: deterministicAddress(chain, idempotencyKey), createdAt: ctx.now },
        update: {},
      });
      return { providerWalletId: row.id, address: row.address };
    });
  },

  getBalances: (ctx, { providerWalletId }) =>
    books(ctx, async () => {
      const wallet = await ctx.db.simCustodyWallet.findUnique({ where: { id: providerWalletId } });
      if (!wallet) throw new ProviderExecutionError(`the simulated custodian has no vault ${providerWalletId}`);
      const assets = Object.keys(ASSET_DECIMALS);
      const balances = [];
      for (const asset of assets) {
        const { completed } = await spent(ctx, providerWalletId, asset);
        const amount = startingBalance(wallet.chain, asset) - completed;
        balances.push({ asset, amountMinor: amount.toString(), decimals: ASSET_DECIMALS[asset] as number });
      }
      return balances;
    }),

  async submitTransfer(ctx, input) {
    const { idempotencyKey, providerWalletId, chain, destination, asset, amountMinor, note } = input;
    if (note?.startsWith(TIMEOUT_PREFIX)) throw new ProviderExecutionError(`simulated custodian timeout (note ${TIMEOUT_PREFIX}…)`);
    return books(ctx, async () => {
      const existing = await ctx.db.simCustodyTransfer.findUnique({ where: { idempotencyKey } });
      if (existing) return { providerTransferId: existing.id };
      let outcome: string | null = null;
      let pendingReads = 0;
      if (providerWalletId !== REHEARSAL_VAULT_ID) {
        // Lock the vault so concurrent submissions cannot both pass the balance check.
        const locked = await ctx.db.$queryRaw<Array<{ id: string; chain: string; type: string }>>`
          SELECT id, chain, type FROM "SimCustodyWallet" WHERE id = ${providerWalletId} FOR UPDATE`;
        const wallet = locked[0];
        if (!wallet) throw new ProviderExecutionError(`the simulated custodian has no vault ${providerWalletId}`);
        if (wallet.chain !== chain) throw new ProviderExecutionError(`vault ${providerWalletId} is on ${wallet.chain}, not ${chain}`);
        pendingReads = wallet.type === "cold" ? 1 : 0;
        const { completed, reserved } = await spent(ctx, providerWalletId, asset);
        const available = startingBalance(chain, asset) - completed - reserved;
        if (BigInt(amountMinor) > available) outcome = "insufficient_funds";
      }
      if (destination.toLowerCase() === FAILING_ADDRESS.toLowerCase()) outcome = "provider_failed";
      const row = await ctx.db.simCustodyTransfer.create({
        data: {
          id: `sim_tx_${hex(`transfer|${idempotencyKey}`, 24)}`,
          idempotencyKey,
          providerWalletId,
          asset,
          amountMinor,
          destination,
          state: "submitted",
          pendingReads,
          outcome,
          failReads: note?.startsWith(UNREACHABLE_PREFIX) ?? false,
          createdAt: ctx.now,
        },
      });
      return { providerTransferId: row.id };
    });
  },

  getTransfer: (ctx, { providerTransferId }) =>
    books(ctx, async () => {
      const row = await ctx.db.simCustodyTransfer.findUnique({ where: { id: providerTransferId } });
      if (!row) return null;
      if (row.failReads) throw new ProviderExecutionError(`the simulated custodian failed to read ${row.id} (note ${UNREACHABLE_PREFIX}…)`);
      let { state, pendingReads, txHash } = row;
      if (state === "submitted") {
        if (pendingReads > 0) {
          pendingReads -= 1;
        } else {
          state = row.outcome === null ? "completed" : "failed";
          // A chain is needed for the hash format: the vault's, or EVM for the rehearsal vault's EVM-looking destination.
          const vault = await ctx.db.simCustodyWallet.findUnique({ where: { id: row.providerWalletId }, select: { chain: true } });
          const chain = vault?.chain ?? (row.destination.startsWith("0x") ? "ethereum" : "solana");
          txHash = state === "completed" ? deterministicTxHash(chain, row.id) : null;
        }
        await ctx.db.simCustodyTransfer.update({ where: { id: row.id }, data: { state, pendingReads, txHash } });
      }
      const failure: ProviderCustodyTransfer["failure"] =
        state !== "failed"
          ? null
          : row.outcome === "insufficient_funds"
            ? { code: "insufficient_funds", message: "The vault's available balance does not cover the transfer." }
            : { code: "provider_failed", message: "The simulated custodian could not broadcast the transaction." };
      return {
        providerTransferId: row.id,
        providerWalletId: row.providerWalletId,
        state: state as ProviderCustodyTransfer["state"],
        asset: row.asset,
        amountMinor: row.amountMinor.toFixed(0),
        destination: row.destination,
        txHash,
        failure,
      };
    }),
};

export const custodySimulator: ProviderAdapter = {
  slug: "simulator",
  category: "custody",
  name: "Sandbox custody simulator",
  simulator: true,
  parseConfig: (config) => parseObjectConfig(config ?? {}, {}),
  capabilities: { custody: custodyCapability },
  operations: {
    get_balance: {
      description: "Balance of `asset` (default USDC) in a custody wallet, in minor units.",
      kind: "read",
      requiresApproval: false,
      inputSchema: {
        type: "object",
        required: ["walletId"],
        additionalProperties: false,
        properties: { walletId: { type: "string", minLength: 1, maxLength: 64 }, asset: { enum: ["USDC", "USDT", "DAI"] } },
      },
      async execute({ input }) {
        const { walletId, asset = "USDC" } = input as { walletId: string; asset?: string };
        return { walletId, asset, amountMinor: SIMULATED_STARTING_BALANCE_MINOR, decimals: asset === "DAI" ? 18 : 6 };
      },
    },
    create_transfer: {
      description: "Send `amountMinor` of `asset` from a custody wallet to `destination`. Needs an approved approval request.",
      kind: "write",
      requiresApproval: true,
      inputSchema: {
        type: "object",
        required: ["walletId", "destination", "asset", "amountMinor"],
        additionalProperties: false,
        properties: {
          walletId: { type: "string", minLength: 1, maxLength: 64 },
          destination: { type: "string", minLength: 1, maxLength: 128 },
          asset: { enum: ["USDC", "USDT", "DAI"] },
          amountMinor: { type: "string", pattern: "^[1-9][0-9]{0,37}$" },
          travelRule: { type: "object" },
        },
      },
      screen: (input: { destination: string; asset: string; amountMinor: string }) => ({
        addresses: [{ role: "destination", address: input.destination }],
        amount: { value: minorToDecimal(input.amountMinor, input.asset === "DAI" ? 18 : 6), currency: input.asset },
      }),
      async execute({ input }) {
        const { walletId, destination, amountMinor } = input as { walletId: string; destination: string; amountMinor: string };
        failOnMagic({ address: destination });
        const id = createHash("sha256").update(`${walletId}|${destination}|${amountMinor}`).digest("hex").slice(0, 16);
        return { providerTransferId: `sim_tx_${id}`, state: "submitted" };
      },
    },
  },
};

function minorToDecimal(minor: string, decimals: number): string {
  const padded = minor.padStart(decimals + 1, "0");
  return `${padded.slice(0, -decimals)}.${padded.slice(-decimals)}`;
}
