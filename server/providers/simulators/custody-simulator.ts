// Sandbox custody: a simulated custodian. `operations` serve providers/invoke (stateless); `capabilities.custody` serves the
// custody endpoints and the corridor's custody leg, and keeps the custodian's books in its own tables (SimCustodyWallet,
// SimCustodyTransfer) so that balances move and transfers settle. It reaches them only through its storage port
// (capabilities/simulated-custody-store.ts), which the caller hands it in the call context. A submission's idempotency
// key is its reference: it executes at most once, and `findTransfer` answers whether (and as which transfer) it did.
// Deterministic; magic values documented in the spec — an amount (in units of the asset) of 777.77 executes then times
// out, 778.88 times out without executing, 779.99 answers after 3 s (issue 26; not from the corridor's rehearsal vault);
// a wallet, which has no amount, rehearses the same three as the start of its label. A vault's idempotency key (the
// wallet id) is its reference: it opens once, and `findWallet` answers whether it did.
import { createHash } from "node:crypto";
import { base58 } from "@scure/base";
import { ServiceError } from "../../errors/service-error.ts";
import { ASSET_DECIMALS, isEvmChain, NATIVE_ASSET } from "../../lib/chains/chain-assets.ts";
import { toChecksumAddress } from "../../lib/chains/evm-address.ts";
import { numericToMinor } from "../../lib/money/minor-units.ts";
import type { CustodyApi, CustodyCallContext, ProviderCustodyTransfer } from "../capabilities/custody.ts";
import { ProviderUnavailableError } from "../capabilities/provider-unavailable.ts";
import type { SimulatedCustodyBooks } from "../capabilities/simulated-custody-store.ts";
import { type ProviderAdapter, ProviderExecutionError } from "../provider-adapter.ts";
import { parseObjectConfig } from "./config.ts";
import {
  FAILING_ADDRESS,
  failOnMagic,
  SLOW_AMOUNT,
  SLOW_ANSWER_MS,
  simulatedTimeout,
  TIMEOUT_NEVER_EXECUTED_AMOUNT,
  TIMEOUT_THEN_EXECUTED_AMOUNT,
} from "./magic-values.ts";

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

/** Works on the simulator's books (see SimulatedCustodyStore.run for `atomic`, and where the work runs). A storage
 * failure means the simulated custodian cannot be reached (ProviderUnavailableError). */
async function onBooks<T>(ctx: CustodyCallContext, work: (books: SimulatedCustodyBooks) => Promise<T>, atomic = false): Promise<T> {
  try {
    return await ctx.books.run(work, { atomic });
  } catch (error) {
    if (error instanceof ServiceError || error instanceof ProviderExecutionError) throw error;
    throw new ProviderUnavailableError("the simulated custodian's books cannot be read", { cause: error });
  }
}

function startingBalance(chain: string, asset: string): bigint {
  if (asset === "USDC") return BigInt(SIMULATED_STARTING_BALANCE_MINOR);
  if (NATIVE_ASSET[chain] === asset) return SIMULATED_NATIVE_UNITS * 10n ** BigInt(ASSET_DECIMALS[asset] ?? 18);
  return 0n;
}

/** Which unknown-outcome magic amount (magic-values.ts) `amountMinor` of `asset` is, if any. The corridor's rehearsal
 * vault never rehearses them: its caller cannot look a submission up. */
function unknownOutcomeMagic(providerWalletId: string, asset: string, amountMinor: string): string | null {
  if (providerWalletId === REHEARSAL_VAULT_ID) return null;
  const decimals = ASSET_DECIMALS[asset] ?? 6;
  const magic = [TIMEOUT_THEN_EXECUTED_AMOUNT, TIMEOUT_NEVER_EXECUTED_AMOUNT, SLOW_AMOUNT];
  return magic.find((amount) => numericToMinor(amount, decimals).toString() === amountMinor) ?? null;
}

/** A wallet has no amount: the unknown-outcome magic values (magic-values.ts) rehearse its creation as the start of its
 * label instead (`777.77 …`). */
function unknownOutcomeLabel(label: string): string | null {
  const magic = [TIMEOUT_THEN_EXECUTED_AMOUNT, TIMEOUT_NEVER_EXECUTED_AMOUNT, SLOW_AMOUNT];
  return magic.find((value) => label.startsWith(value)) ?? null;
}

const minorOf = (text: string | null | undefined) => (text == null ? 0n : numericToMinor(text, 0));

/** Settled (completed) and reserved (submitted, not yet failed) totals of a vault's asset. */
async function spent(
  books: SimulatedCustodyBooks,
  providerWalletId: string,
  asset: string,
): Promise<{ completed: bigint; reserved: bigint }> {
  const rows = await books.transferTotalsByState(providerWalletId, asset);
  const sum = (state: string) => minorOf(rows.find((r) => r.state === state)?.total);
  return { completed: sum("completed"), reserved: sum("submitted") };
}

const custodyCapability: CustodyApi = {
  findWallet: (ctx, { idempotencyKey }) =>
    onBooks(ctx, async (books) => {
      const row = await books.vaultByKey(idempotencyKey);
      return row ? { providerWalletId: row.id, address: row.address } : null;
    }),

  async createWallet(ctx, { idempotencyKey, chain, type, label }) {
    if (label.startsWith(TIMEOUT_PREFIX)) throw new ProviderExecutionError(`simulated custodian timeout (label ${TIMEOUT_PREFIX}…)`);
    const magic = unknownOutcomeLabel(label);
    if (magic === TIMEOUT_NEVER_EXECUTED_AMOUNT) throw simulatedTimeout("The simulated custodian");
    if (magic === SLOW_AMOUNT) await new Promise((resolve) => setTimeout(resolve, SLOW_ANSWER_MS));
    const opened = await onBooks(ctx, async (books) => {
      const id = `sim_vault_${hex(`vault|${idempotencyKey}`, 24)}`;
      const address = deterministicAddress(chain, idempotencyKey);
      const created = await books.openVault({ id, idempotencyKey, chain, type, label, address, createdAt: ctx.now });
      // Created earlier under this key (a retry): that vault stands.
      const row = created ?? (await books.vaultByKey(idempotencyKey));
      if (!row) throw new Error(`the simulated custodian's vault under ${idempotencyKey} vanished`);
      return { providerWalletId: row.id, address: row.address };
    });
    // Recorded (committed) first: the answer alone is lost.
    if (magic === TIMEOUT_THEN_EXECUTED_AMOUNT) throw simulatedTimeout("The simulated custodian");
    return opened;
  },

  getBalances: (ctx, { providerWalletId }) =>
    onBooks(ctx, async (books) => {
      // One row per asset the vault has completed transfers of (one row with a null asset when it has none).
      const rows = await books.completedTotalsOfVault(providerWalletId);
      const wallet = rows[0];
      if (!wallet) throw new ProviderExecutionError(`the simulated custodian has no vault ${providerWalletId}`);
      return Object.keys(ASSET_DECIMALS).map((asset) => {
        const completed = minorOf(rows.find((r) => r.asset === asset)?.completed);
        const amount = startingBalance(wallet.chain, asset) - completed;
        return { asset, amountMinor: amount.toString(), decimals: ASSET_DECIMALS[asset] as number };
      });
    }),

  async submitTransfer(ctx, input) {
    const { idempotencyKey, providerWalletId, chain, destination, asset, amountMinor, note } = input;
    if (note?.startsWith(TIMEOUT_PREFIX)) throw new ProviderExecutionError(`simulated custodian timeout (note ${TIMEOUT_PREFIX}…)`);
    const id = `sim_tx_${hex(`transfer|${idempotencyKey}`, 24)}`;
    const magic = unknownOutcomeMagic(providerWalletId, asset, amountMinor);
    if (magic === TIMEOUT_NEVER_EXECUTED_AMOUNT) throw simulatedTimeout("The simulated custodian");
    if (magic === SLOW_AMOUNT) await new Promise((resolve) => setTimeout(resolve, SLOW_ANSWER_MS));
    const submitted = await onBooks(
      ctx,
      async (books) => {
        const existing = await books.transferIdByKey(idempotencyKey);
        if (existing) return { providerTransferId: existing };
        let outcome: string | null = null;
        let pendingReads = 0;
        if (providerWalletId !== REHEARSAL_VAULT_ID) {
          // Lock the vault so concurrent submissions cannot both pass the balance check.
          const wallet = await books.lockVault(providerWalletId);
          if (!wallet) throw new ProviderExecutionError(`the simulated custodian has no vault ${providerWalletId}`);
          if (wallet.chain !== chain) throw new ProviderExecutionError(`vault ${providerWalletId} is on ${wallet.chain}, not ${chain}`);
          pendingReads = wallet.type === "cold" ? 1 : 0;
          const { completed, reserved } = await spent(books, providerWalletId, asset);
          const available = startingBalance(chain, asset) - completed - reserved;
          if (BigInt(amountMinor) > available) outcome = "insufficient_funds";
        }
        if (destination.toLowerCase() === FAILING_ADDRESS.toLowerCase()) outcome = "provider_failed";
        // A concurrent submission under the same key may have won meanwhile: its transfer (the same id) stands.
        await books.recordTransfer({
          id,
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
        });
        return { providerTransferId: id };
      },
      true,
    );
    // Recorded (committed) first: the answer alone is lost.
    if (magic === TIMEOUT_THEN_EXECUTED_AMOUNT) throw simulatedTimeout("The simulated custodian");
    return submitted;
  },

  findTransfer: (ctx, { idempotencyKey }) =>
    onBooks(ctx, async (books) => {
      const id = await books.transferIdByKey(idempotencyKey);
      return id ? { providerTransferId: id } : null;
    }),

  getTransfer: (ctx, { providerTransferId }) =>
    onBooks(
      ctx,
      async (books) => {
        // Locked: concurrent reads move a transfer's state one step at a time.
        const row = await books.lockTransfer(providerTransferId);
        if (!row) return null;
        if (row.failReads)
          throw new ProviderExecutionError(`the simulated custodian failed to read ${row.id} (note ${UNREACHABLE_PREFIX}…)`);
        let { state, pendingReads, txHash } = row;
        if (state === "submitted") {
          if (pendingReads > 0) {
            pendingReads -= 1;
          } else {
            state = row.outcome === null ? "completed" : "failed";
            // A chain is needed for the hash format: the vault's, or EVM for the rehearsal vault's EVM-looking destination.
            const vaultChain = await books.chainOfVault(row.providerWalletId);
            const chain = vaultChain ?? (row.destination.startsWith("0x") ? "ethereum" : "solana");
            txHash = state === "completed" ? deterministicTxHash(chain, row.id) : null;
          }
          await books.updateTransfer(row.id, { state, pendingReads, txHash });
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
          amountMinor: numericToMinor(row.amountMinor, 0).toString(),
          destination: row.destination,
          txHash,
          failure,
        };
      },
      true,
    ),
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
