// The custody simulator's submissions by reference (issue 26): an idempotency key submits at most once, `findTransfer`
// tells whether and as which transfer it did, and the magic amounts (in units of the asset) make an unknown outcome
// (submitted or not) or a slow answer — never from the corridor's rehearsal vault, whose caller cannot look it up.
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
  const store: SimulatedCustodyStore = { run: (work) => work(books as SimulatedCustodyBooks) };
  return { ctx: { config: {}, now: new Date(), books: store }, transfers };
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
