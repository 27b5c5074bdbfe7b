// The storage port of the sandbox chain (issue 28): the transaction log the chain replays and appends to, in the
// chain's own terms. Declared here, beside the chain; implemented by the data part (server/db/sandbox-chain-log-store.ts)
// and handed in by whoever calls the chain, so the chain never sees a database handle or a transaction.

/** One applied transaction as the chain replays it, in log order (`seq` 1, 2, …, no gaps). */
export interface SandboxChainLogRow {
  seq: number;
  blockNumber: number;
  hash: string;
  /** Signed transaction, RLP-serialized, 0x-hex. */
  rawTx: string;
}

/** A transaction appended to the log, with what the log keeps beside the replay data. */
export interface SandboxChainLogEntry extends SandboxChainLogRow {
  fromAddress: string;
  toAddress: string | null;
  contractAddress: string | null;
  projectId: string | null;
  description: string;
  createdAt: Date;
}

/** The log as one reader sees it: on the database itself (rows committed so far), or through the caller's open
 * transaction (what that transaction sees). */
export interface SandboxChainLogStore {
  /** The rows after `seq`, in order. */
  rowsAfter(seq: number): Promise<SandboxChainLogRow[]>;
}

/** The log inside the caller's unit of work: read through its transaction, appended to at its commit. */
export interface SandboxChainLogInUnitOfWork extends SandboxChainLogStore {
  /** The unit of work's clock: the time its appended transactions are dated (and their block chosen) by. */
  readonly now: Date;
  /** One appender across processes: held until the unit of work's transaction ends. Once it returns, every committed
   * row is visible to `rowsAfter`. */
  lockAppends(): Promise<void>;
  /** Appends `entries` when the unit of work commits (nothing when it rolls back). */
  appendAtCommit(entries: SandboxChainLogEntry[]): void;
}
