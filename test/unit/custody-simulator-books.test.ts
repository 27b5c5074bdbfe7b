// The custody simulator's submissions by reference (issue 26): an idempotency key submits at most once, `findTransfer`
// tells whether and as which transfer it did, and the magic amounts (in units of the asset) make an unknown outcome
// (submitted or not) or a slow answer — never from the corridor's rehearsal vault, whose caller cannot look it up. A
// vault opens once per idempotency key too, and a wallet's label starting with a magic value rehearses its creation.
import { describe, expect, it } from "vitest";
import { isUnknownOutcome } from "../../server/db/provider-intents.ts";
import { IoTimeoutError } from "../../server/lib/with-io-timeout.ts";
import type { CustodyApi } from "../../server/providers/capabilities/custody.ts";
import type {
  SimulatedCustodyBooks,
  SimulatedCustodyStore,
  SimulatedTransfer,
} from "../../server/providers/capabilities/simulated-custody-store.ts";
import { custodySimulator, REHEARSAL_VAULT_ID } from "../../server/providers/simulators/custody-simulator.ts";

const api = custodySimulator.capabilities?.custody as CustodyApi;
const VAULT = "sim_vault_unit";

/** The books in memory: one hot vault on base, and the transfers submitted. */
function memoryBooks() {
  const transfers = new Map<string, SimulatedTransfer & { idempotencyKey: string }>();
  const books: Partial<SimulatedCustodyBooks> = {
    lockVault: async (id) => (id === VAULT ? { id, chain: "base", type: "mpc" } : undefined),
    transferTotalsByState: async () => [],
    transferIdByKey: async (key) => [...transfers.values()].find((t) => t.idempotencyKey === key)?.id,
    async recordTransfer(transfer) {
      if (!transfers.has(transfer.id)) transfers.set(transfer.id, { ...transfer, txHash: null });
    },
  };
  const vaults = new Map<string, { id: string; address: string }>();
  books.vaultByKey = async (key) => vaults.get(key);
  books.openVault = async ({ id, idempotencyKey, address }) => {
    if (vaults.has(idempotencyKey)) return undefined;
    vaults.set(idempotencyKey, { id, address });
    return { id, address };
  };
  const store: SimulatedCustodyStore = { run: (work) => work(books as SimulatedCustodyBooks) };
  return { ctx: { config: {}, now: new Date(), books: store }, transfers, vaults };
}

const submission = (idempotencyKey: string, amountMinor: string, providerWalletId = VAULT) => ({
  idempotencyKey,
  providerWalletId,
  chain: "base",
  destination: "0x52908400098527886E0F7030069857D2E4169EE7",
  asset: "USDC",
  amountMinor,
  note: null,
});

describe("the custody simulator's submissions by reference", () => {
  it("submits a reference once: a repeated call answers the first transfer; findTransfer finds it", async () => {
    const { ctx, transfers } = memoryBooks();
    const first = await api.submitTransfer(ctx, submission("ct_1", "2500000"));
    expect(await api.submitTransfer(ctx, submission("ct_1", "2500000"))).toEqual(first);
    expect(transfers.size).toBe(1);
    expect(await api.findTransfer(ctx, { idempotencyKey: "ct_1" })).toEqual(first);
    expect(await api.findTransfer(ctx, { idempotencyKey: "ct_unknown" })).toBeNull();
  });

  it("777.77 submits and then times out; 778.88 times out without submitting: both unknown outcomes, at once", async () => {
    const { ctx } = memoryBooks();
    const started = Date.now();
    const executed = await api.submitTransfer(ctx, submission("ct_777", "777770000")).catch((error: unknown) => error);
    expect(executed).toBeInstanceOf(IoTimeoutError);
    expect(isUnknownOutcome(executed)).toBe(true);
    expect(await api.findTransfer(ctx, { idempotencyKey: "ct_777" })).toMatchObject({
      providerTransferId: expect.stringMatching(/^sim_tx_/),
    });
    await expect(api.submitTransfer(ctx, submission("ct_778", "778880000"))).rejects.toBeInstanceOf(IoTimeoutError);
    expect(await api.findTransfer(ctx, { idempotencyKey: "ct_778" })).toBeNull();
    expect(Date.now() - started).toBeLessThan(1_000);
    // The same numbers in other units are ordinary amounts.
    await expect(api.submitTransfer(ctx, submission("ct_77777", "77777"))).resolves.toMatchObject({
      providerTransferId: expect.any(String),
    });
  });

  it("the rehearsal vault never rehearses an unknown outcome", async () => {
    const { ctx } = memoryBooks();
    await expect(api.submitTransfer(ctx, submission("ct_r", "777770000", REHEARSAL_VAULT_ID))).resolves.toMatchObject({
      providerTransferId: expect.any(String),
    });
  });
});

describe("the custody simulator's vaults by reference", () => {
  const wallet = (idempotencyKey: string, label: string) => ({ idempotencyKey, chain: "base", type: "mpc", label });

  it("opens a vault once per key: a repeated call answers the first; findWallet finds it", async () => {
    const { ctx, vaults } = memoryBooks();
    const first = await api.createWallet(ctx, wallet("cw_1", "Treasury"));
    expect(await api.createWallet(ctx, wallet("cw_1", "Treasury"))).toEqual(first);
    expect(vaults.size).toBe(1);
    expect(await api.findWallet(ctx, { idempotencyKey: "cw_1" })).toEqual(first);
    expect(await api.findWallet(ctx, { idempotencyKey: "cw_unknown" })).toBeNull();
  });

  it("a label starting with 777.77 opens the vault then times out; 778.88 times out without opening it", async () => {
    const { ctx } = memoryBooks();
    const executed = await api.createWallet(ctx, wallet("cw_777", "777.77 rehearsal")).catch((error: unknown) => error);
    expect(isUnknownOutcome(executed)).toBe(true);
    expect(await api.findWallet(ctx, { idempotencyKey: "cw_777" })).toMatchObject({
      providerWalletId: expect.stringMatching(/^sim_vault_/),
    });
    await expect(api.createWallet(ctx, wallet("cw_778", "778.88 rehearsal"))).rejects.toBeInstanceOf(IoTimeoutError);
    expect(await api.findWallet(ctx, { idempotencyKey: "cw_778" })).toBeNull();
    // Elsewhere in the label, the numbers are ordinary text.
    await expect(api.createWallet(ctx, wallet("cw_x", "Batch 777.77"))).resolves.toMatchObject({ providerWalletId: expect.any(String) });
  });
});
