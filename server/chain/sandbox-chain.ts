// The sandbox chain: an in-process EVM whose state survives restarts. Every transaction applied to it is appended to
// the SandboxChainTransaction log in the database; a process replays the log into a fresh VM at first use and catches
// up with rows other processes appended before every use. One chain serves every sandbox organization (like a public
// testnet). Block numbers follow the sandbox chain reader's clock (one block every 12 s since 2026-01-01T00:00:00Z), one
// transaction per block.
import type { VM } from "@ethereumjs/vm";
import type { Abi, Hex } from "viem";
import type { Db } from "../db/open-database.ts";
import type { Tx } from "../idempotency/idempotency-store.ts";
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

const GENESIS_MS = Date.UTC(2026, 0, 1);
const BLOCK_MS = 12_000;
/** pg_advisory_xact_lock key serializing appends to the log across processes. */
const CHAIN_LOCK_ID = 7_357_001;

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

/** A write: transactions sent inside the caller's database transaction. */
export interface ChainSession {
  /** Signs `requests` with `key` (nonces from the chain), applies them in order and appends them to the log in `tx`.
   * A reverted transaction throws ChainTxReverted (the caller's transaction then rolls back, and so does the chain). */
  send(tx: Tx, key: Uint8Array, requests: TxRequest[], meta: { projectId?: string; abi?: Abi }): Promise<SentTx[]>;
  view(): ChainView;
}

export class ChainTxReverted extends Error {
  constructor(
    readonly description: string,
    readonly reason: string,
  ) {
    super(`${description} reverted: ${reason}`);
  }
}

export class SandboxChain {
  private vm: VM | undefined;
  private appliedSeq = 0;
  private lastBlock = 0;
  private queue: Promise<void> = Promise.resolve();

  constructor(private readonly prisma: Db) {}

  /** Runs `fn` on the current state (caught up with the log), holding the chain so nothing changes meanwhile. */
  async read<T>(fn: (view: ChainView) => Promise<T>): Promise<T> {
    return this.exclusive(async () => {
      const vm = await this.catchUp(this.prisma);
      return fn(this.viewOf(vm));
    });
  }

  /**
   * Runs `work` holding the chain. Transactions sent through the session are applied on a checkpoint: kept when `work`
   * resolves (its database transaction committed), reverted when it throws (rolled back). Never call it from inside an
   * open database transaction: it waits for other chain users, who may be waiting for the database.
   */
  async transact<T>(work: (session: ChainSession) => Promise<T>): Promise<T> {
    return this.exclusive(async () => {
      const vm = await this.catchUp(this.prisma);
      let checkpoint: { seq: number; block: number } | undefined;
      const session: ChainSession = {
        view: () => this.viewOf(vm),
        send: async (tx, key, requests, meta) => {
          if (!checkpoint) {
            // Serialize appends across processes, then apply what others appended meanwhile before writing after it.
            await tx.$queryRawUnsafe(`SELECT 1 AS locked FROM pg_advisory_xact_lock(${CHAIN_LOCK_ID})`);
            await this.catchUp(tx);
            await vm.stateManager.checkpoint();
            checkpoint = { seq: this.appliedSeq, block: this.lastBlock };
          }
          return this.sendAll(vm, tx, key, requests, meta);
        },
      };
      try {
        const result = await work(session);
        if (checkpoint) await vm.stateManager.commit();
        return result;
      } catch (error) {
        if (checkpoint) {
          await vm.stateManager.revert();
          this.appliedSeq = checkpoint.seq;
          this.lastBlock = checkpoint.block;
        }
        throw error;
      }
    });
  }

  private async sendAll(vm: VM, tx: Tx, key: Uint8Array, requests: TxRequest[], meta: { projectId?: string; abi?: Abi }) {
    const from = addressOfKey(key);
    const sent: SentTx[] = [];
    for (const request of requests) {
      const account = await vm.stateManager.getAccount(toAddress(from));
      const signed = signTx(vm, key, account?.nonce ?? 0n, request);
      const applied = await applyTx(vm, signed, meta.abi);
      if (applied.error) throw new ChainTxReverted(request.description, applied.error);
      const seq = this.appliedSeq + 1;
      const blockNumber = Math.max(clockBlock(new Date()), this.lastBlock + 1);
      await tx.sandboxChainTransaction.create({
        data: {
          seq,
          blockNumber,
          hash: applied.hash,
          rawTx: applied.raw,
          fromAddress: applied.from,
          toAddress: applied.to,
          contractAddress: applied.contractAddress,
          projectId: meta.projectId ?? null,
          description: request.description,
        },
      });
      this.appliedSeq = seq;
      this.lastBlock = blockNumber;
      sent.push({ ...applied, blockNumber, description: request.description });
    }
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

  /** Replays the log rows not applied yet (all of them into a fresh VM at first use). */
  private async catchUp(db: Db | Tx): Promise<VM> {
    this.vm ??= await newVm();
    const vm = this.vm;
    const rows = await db.sandboxChainTransaction.findMany({ where: { seq: { gt: this.appliedSeq } }, orderBy: { seq: "asc" } });
    for (const row of rows) {
      if (row.seq !== this.appliedSeq + 1) throw new Error(`sandbox chain log has a gap before seq ${row.seq}`);
      const applied = await applyTx(vm, parseRawTx(vm, row.rawTx));
      if (applied.hash !== row.hash || applied.error) throw new Error(`sandbox chain replay diverged at seq ${row.seq}`);
      this.appliedSeq = row.seq;
      this.lastBlock = row.blockNumber;
    }
    return vm;
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

const chains = new WeakMap<Db, SandboxChain>();

/** The sandbox chain of a database, cached per process (a new Database, e.g. after a restart, replays the log). */
export function sandboxChainFor(prisma: Db): SandboxChain {
  let chain = chains.get(prisma);
  if (!chain) {
    chain = new SandboxChain(prisma);
    chains.set(prisma, chain);
  }
  return chain;
}

/** Drops this process's VM for the database: the next use replays the log into a fresh EVM, as after a restart. */
export function forgetSandboxChain(prisma: Db): void {
  chains.delete(prisma);
}
