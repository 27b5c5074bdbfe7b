// The sandbox chain: an in-process EVM whose state survives restarts. Every transaction applied to it is appended to
// the SandboxChainTransaction log in the database; a process replays the log into a fresh VM at first use and catches
// up with rows other processes appended before every use. One chain serves every sandbox organization (like a public
// testnet). Block numbers follow the sandbox chain reader's clock (one block every 12 s since 2026-01-01T00:00:00Z), one
// transaction per block.
//
// The log is reached only through the chain's storage port (sandbox-chain-log.ts; the data part implements it): on the
// database itself, or inside the caller's unit of work. Writes run in the request's unit of work: the log rows commit
// with it, in its closing statement. The unit of work has no after-commit hook, so the VM keeps what a write applied as *unconfirmed* until a later catch-up
// finds those rows in the log. A write whose transaction did not commit is found out by the next writer (it holds the
// append lock, so it sees every committed row) or by any catch-up finding other rows in their place: the VM is then
// replayed from the log.
//
// Two locks: an in-process queue (one user of the VM at a time) and, for writers, the port's append lock in the request's
// transaction (one appender across processes, held until that transaction ends). Nothing waits for a database
// connection while holding the queue: a read outside any transaction fetches the log before it queues, and a read or
// write inside a transaction queries through that transaction (on PGlite a statement outside it would wait for it).
import type { VM } from "@ethereumjs/vm";
import type { Abi, Hex } from "viem";
import {
  type AppliedTx,
  addressOfKey,
  applyTx,
  getCode,
  newVm,
  parseRawTx,
  readFunction,
  signTx,
  staticCall,
  type TxRequest,
  toAddress,
} from "./evm.ts";
import type { SandboxChainLogEntry, SandboxChainLogInUnitOfWork, SandboxChainLogRow, SandboxChainLogStore } from "./sandbox-chain-log.ts";

const GENESIS_MS = Date.UTC(2026, 0, 1);
const BLOCK_MS = 12_000;

export const clockBlock = (now: Date) => Math.max(0, Math.floor((now.getTime() - GENESIS_MS) / BLOCK_MS));

/** Read access to the chain state as of the latest applied block. */
export interface ChainView {
  vm: VM;
  blockNumber: number;
  call(to: string, data: Hex): ReturnType<typeof staticCall>;
  read<T>(to: string, abi: Abi, functionName: string, args?: readonly unknown[]): Promise<T>;
  getCode(address: string): Promise<Hex>;
}

export interface SentTx extends AppliedTx {
  blockNumber: number;
  description: string;
}

/** A write: transactions sent inside the caller's unit of work. */
export interface ChainSession {
  /** Signs `requests` with `key` (nonces from the chain), applies them in order and appends them to the log at the unit
   * of work's commit. A reverted transaction throws ChainTxReverted (the unit of work then rolls back, and so does the
   * chain). */
  send(key: Uint8Array, requests: TxRequest[], meta: { projectId?: string; abi?: Abi }): Promise<SentTx[]>;
  view(): ChainView;
}

export class ChainTxReverted extends Error {
  readonly description: string;
  readonly reason: string;

  constructor(description: string, reason: string) {
    super(`${description} reverted: ${reason}`);
    this.description = description;
    this.reason = reason;
  }
}

export class SandboxChain {
  private readonly log: SandboxChainLogStore;
  private vm: VM | undefined;
  /** The last log row applied to the VM, confirmed or not. */
  private appliedSeq = 0;
  /** The last log row applied to the VM and seen in the log; rows after it are in `unconfirmed`. */
  private confirmedSeq = 0;
  private lastBlock = 0;
  /** seq → hash of the transactions a write of this process applied whose rows no catch-up has seen in the log yet. */
  private readonly unconfirmed = new Map<number, string>();
  private queue: Promise<void> = Promise.resolve();

  /** `log`: the log on the database itself, read when the caller has no transaction open. */
  constructor(log: SandboxChainLogStore) {
    this.log = log;
  }

  /**
   * Runs `fn` on the current state (caught up with the log), holding the chain so nothing changes meanwhile.
   * `inTransaction`: the log through the caller's open transaction, when it has one; the log is then read through it.
   */
  async read<T>(fn: (view: ChainView) => Promise<T>, inTransaction?: SandboxChainLogStore): Promise<T> {
    if (inTransaction) {
      return this.exclusive(async () => {
        await this.catchUpThrough(inTransaction, false);
        return fn(this.viewOf(this.vm as VM));
      });
    }
    for (;;) {
      // Fetched before queueing: a statement outside any transaction may wait for one whose owner waits for the queue.
      const after = this.confirmedSeq;
      const rows = await this.log.rowsAfter(after);
      const done = await this.exclusive(async () =>
        (await this.applyLog(rows, after, false)) ? { value: await fn(this.viewOf(this.vm as VM)) } : undefined,
      );
      if (done) return done.value;
    }
  }

  /**
   * Runs `work` holding the chain, in the request's unit of work (`uow`: the log inside it). Transactions sent through
   * the session are applied on a checkpoint: kept when `work` resolves (their log rows are written at the unit of work's
   * commit), reverted when it throws. Do all of a request's chain work in one call: the append lock is held until the
   * transaction ends.
   */
  async transact<T>(uow: SandboxChainLogInUnitOfWork, work: (session: ChainSession) => Promise<T>): Promise<T> {
    return this.exclusive(async () => {
      await uow.lockAppends();
      // Under the append lock every committed row is visible: a write of ours missing from the log did not commit.
      await this.catchUpThrough(uow, true);
      const vm = this.vm as VM;
      await vm.stateManager.checkpoint();
      const mark = { seq: this.appliedSeq, block: this.lastBlock };
      const sent: SentTx[] = [];
      const session: ChainSession = {
        view: () => this.viewOf(vm),
        send: async (key, requests, meta) => {
          const batch = await this.sendAll(uow, vm, key, requests, meta);
          sent.push(...batch);
          return batch;
        },
      };
      try {
        const result = await work(session);
        await vm.stateManager.commit();
        for (const [i, tx] of sent.entries()) this.unconfirmed.set(mark.seq + i + 1, tx.hash);
        return result;
      } catch (error) {
        await vm.stateManager.revert();
        this.appliedSeq = mark.seq;
        this.lastBlock = mark.block;
        throw error;
      }
    });
  }

  private async sendAll(
    uow: SandboxChainLogInUnitOfWork,
    vm: VM,
    key: Uint8Array,
    requests: TxRequest[],
    meta: { projectId?: string; abi?: Abi },
  ) {
    const from = addressOfKey(key);
    const sent: SentTx[] = [];
    const rows: SandboxChainLogEntry[] = [];
    for (const request of requests) {
      const account = await vm.stateManager.getAccount(toAddress(from));
      const signed = signTx(vm, key, account?.nonce ?? 0n, request);
      const applied = await applyTx(vm, signed, meta.abi);
      if (applied.error) throw new ChainTxReverted(request.description, applied.error);
      const seq = this.appliedSeq + 1;
      const blockNumber = Math.max(clockBlock(uow.now), this.lastBlock + 1);
      rows.push({
        seq,
        blockNumber,
        hash: applied.hash,
        rawTx: applied.raw,
        fromAddress: applied.from,
        toAddress: applied.to,
        contractAddress: applied.contractAddress,
        projectId: meta.projectId ?? null,
        description: request.description,
        createdAt: uow.now,
      });
      this.appliedSeq = seq;
      this.lastBlock = blockNumber;
      sent.push({ ...applied, blockNumber, description: request.description });
    }
    if (rows.length > 0) uow.appendAtCommit(rows);
    return sent;
  }

  private viewOf(vm: VM): ChainView {
    return {
      vm,
      blockNumber: Math.max(clockBlock(new Date()), this.lastBlock),
      call: (to, data) => staticCall(vm, to, data),
      read: (to, abi, functionName, args = []) => readFunction(vm, to, abi, functionName, args),
      getCode: (address) => getCode(vm, address),
    };
  }

  /** Inside the queue: catches up through the caller's transaction (`log`: the log inside it) until the log connects. */
  private async catchUpThrough(log: SandboxChainLogStore, strict: boolean): Promise<void> {
    for (;;) {
      const after = this.confirmedSeq;
      if (await this.applyLog(await log.rowsAfter(after), after, strict)) return;
    }
  }

  /**
   * Inside the queue: applies the log rows fetched after `afterSeq` (all of them into a fresh VM at first use) and
   * confirms this process's unconfirmed writes found among them. False when the rows do not connect to the VM's state or
   * a write of ours turned out not to have committed (the VM is then dropped): fetch again. `strict`: the caller sees
   * every committed row (it holds the append lock), so an unconfirmed write missing from the rows did not commit.
   */
  private async applyLog(rows: SandboxChainLogRow[], afterSeq: number, strict: boolean): Promise<boolean> {
    if (afterSeq > this.confirmedSeq) return false; // the VM was dropped after the fetch
    this.vm ??= await newVm();
    const vm = this.vm;
    for (const row of rows) {
      if (row.seq <= this.confirmedSeq) continue;
      if (row.seq <= this.appliedSeq) {
        if (this.unconfirmed.get(row.seq) !== row.hash) return this.drop();
        this.unconfirmed.delete(row.seq);
        this.confirmedSeq = row.seq;
        continue;
      }
      if (row.seq !== this.appliedSeq + 1) throw new Error(`sandbox chain log has a gap before seq ${row.seq}`);
      const applied = await applyTx(vm, parseRawTx(vm, row.rawTx));
      if (applied.hash !== row.hash || applied.error) throw new Error(`sandbox chain replay diverged at seq ${row.seq}`);
      this.appliedSeq = row.seq;
      this.confirmedSeq = row.seq;
      this.lastBlock = row.blockNumber;
    }
    if (strict && this.unconfirmed.size > 0) return this.drop();
    return true;
  }

  /** Forgets the VM: the next catch-up replays the whole log into a fresh one. */
  private drop(): false {
    this.vm = undefined;
    this.appliedSeq = 0;
    this.confirmedSeq = 0;
    this.lastBlock = 0;
    this.unconfirmed.clear();
    return false;
  }

  /** One user of the VM at a time (reads, writes, replay). */
  private exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.queue.then(fn);
    this.queue = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }
}

const chains = new WeakMap<SandboxChainLogStore, SandboxChain>();

function assertOnDatabase(log: SandboxChainLogStore): void {
  if ("lockAppends" in log) {
    throw new TypeError(
      "The sandbox chain is named by the log on the database, not one inside a unit of work (pass that to read or transact)",
    );
  }
}

/** The sandbox chain of a database, named by its log on the database (the data part's sandboxChainLogOf(db), one object
 * per database, never the log inside a unit of work), cached per process (a new Database, e.g. after a restart,
 * replays the log). */
export function sandboxChainFor(log: SandboxChainLogStore): SandboxChain {
  assertOnDatabase(log);
  let chain = chains.get(log);
  if (!chain) {
    chain = new SandboxChain(log);
    chains.set(log, chain);
  }
  return chain;
}

/** Drops this process's VM for the database: the next use replays the log into a fresh EVM, as after a restart. */
export function forgetSandboxChain(log: SandboxChainLogStore): void {
  assertOnDatabase(log);
  chains.delete(log);
}
