// The storage port of the sandbox custody simulator (issue 28): the simulated custodian's books — its vaults and the
// transfers sent from them — in the simulator's own terms. Declared here, with the custody capability whose call context
// carries it; implemented by the data part (server/db/simulated-custody-store.ts) and handed in by the caller, so the
// simulator never sees a database handle or a transaction. A live custodian keeps its own books and ignores it.

/** A vault as the simulated custodian opened it. */
export interface SimulatedVault {
  id: string;
  address: string;
}

/** A transfer as the simulated custodian recorded it. `amountMinor` is the stored numeric, as text. */
export interface SimulatedTransfer {
  id: string;
  providerWalletId: string;
  asset: string;
  amountMinor: string;
  destination: string;
  /** submitted | completed | failed */
  state: string;
  /** Reads still answered `submitted` before the transfer turns final. */
  pendingReads: number;
  /** Decided at submission: provider_failed | insufficient_funds | null (completes). */
  outcome: string | null;
  /** Every read of the transfer fails. */
  failReads: boolean;
  txHash: string | null;
}

/** The operations on the books; each is one statement. */
export interface SimulatedCustodyBooks {
  /** The vault opened under this idempotency key. */
  vaultByKey(idempotencyKey: string): Promise<SimulatedVault | undefined>;
  /** Opens a vault; undefined when one exists under its idempotency key already (that one stands). */
  openVault(vault: {
    id: string;
    idempotencyKey: string;
    chain: string;
    type: string;
    label: string;
    address: string;
    createdAt: Date;
  }): Promise<SimulatedVault | undefined>;
  /** The vault's chain with its completed transfers' totals per asset (`completed`: a numeric as text): one row per asset
   * it has completed transfers of, one row with a null asset when it has none, no row when there is no such vault. */
  completedTotalsOfVault(vaultId: string): Promise<Array<{ chain: string; asset: string | null; completed: string | null }>>;
  /** Locks the vault until the books' work ends (concurrent submissions check its balance one at a time). */
  lockVault(vaultId: string): Promise<{ id: string; chain: string; type: string } | undefined>;
  /** The vault's chain. */
  chainOfVault(vaultId: string): Promise<string | undefined>;
  /** The id of the transfer recorded under this idempotency key. */
  transferIdByKey(idempotencyKey: string): Promise<string | undefined>;
  /** Totals (a numeric as text) per state of the vault's transfers of `asset` with no decided failure. */
  transferTotalsByState(vaultId: string, asset: string): Promise<Array<{ state: string; total: string | null }>>;
  /** Records a transfer; nothing when one with its id or idempotency key exists (that one stands). */
  recordTransfer(transfer: Omit<SimulatedTransfer, "txHash"> & { idempotencyKey: string; createdAt: Date }): Promise<void>;
  /** Locks the transfer until the books' work ends (concurrent reads move its state one step at a time). */
  lockTransfer(transferId: string): Promise<SimulatedTransfer | undefined>;
  updateTransfer(transferId: string, changes: Pick<SimulatedTransfer, "state" | "pendingReads" | "txHash">): Promise<void>;
}

export interface SimulatedCustodyStore {
  /**
   * Runs `work` on the books. On the database itself, `atomic` work gets a transaction of its own (other work runs
   * statement by statement); inside the caller's transaction, any work runs behind a savepoint, so that a failure
   * undoes only the books' work and leaves the caller's transaction usable.
   */
  run<T>(work: (books: SimulatedCustodyBooks) => Promise<T>, options?: { atomic?: boolean }): Promise<T>;
}
