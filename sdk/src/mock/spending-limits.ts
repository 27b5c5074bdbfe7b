// API keys' spending limits in the mock, as the server counts them (server/domain/spending-limits/): a key given
// `spendingLimits` may move at most `perCall` per call and `per24h` per rolling 24 hours of each asset it lists and
// nothing of another; a call past a limit answers 403 FORBIDDEN with the `spendingLimit` extension. What moves: v1
// payments, bank transfers, corridor runs, custody transfer requests and card funding (mint and burn count in the
// issuer's token, which the mock does not know: they are not counted here). A replay answers the first answer and is
// not counted again (the mock's idempotency runs first, as the server's does).
import type { MockError } from "./api-errors.ts";

export interface MockSpendingLimit {
  asset: string;
  perCall?: string | null;
  per24h?: string | null;
}

type Body = Record<string, unknown>;
const SCALE = 18;
const DAY_MS = 24 * 60 * 60 * 1000;
/** Decimals of the custody assets (a custody transfer request names `amountMinor`). */
const ASSET_DECIMALS: Readonly<Record<string, number>> = {
  USDC: 6,
  USDT: 6,
  EURC: 6,
  PYUSD: 6,
  DAI: 18,
  ETH: 18,
  POL: 18,
  AVAX: 18,
  SOL: 9,
};

const text = (v: unknown) => (typeof v === "string" ? v : undefined);

/** What each money-moving operation moves, read from its (validated) body. */
const MOVEMENTS: Readonly<Record<string, (body: Body) => { asset?: string; amount?: string; minor?: string } | undefined>> = {
  createPayment: (b) => ({ asset: text(b.stablecoin), amount: text(b.amount) }),
  createBankTransfer: (b) => ({ asset: text(b.currency), amount: text(b.amount) }),
  simulateCorridor: (b) => ({ asset: text(b.currency), amount: text(b.amount) }),
  fundCard: (b) => ({ asset: text(b.asset), amount: text(b.amount) }),
  createCustodyTransfer: (b) => (b.walletId === undefined ? undefined : { asset: text(b.asset), minor: text(b.amountMinor) }),
};

function toUnits(amount: string): bigint {
  const [whole = "0", fraction = ""] = amount.split(".");
  return BigInt(whole + fraction.slice(0, SCALE).padEnd(SCALE, "0"));
}

function fromUnits(units: bigint): string {
  const digits = units.toString().padStart(SCALE + 1, "0");
  const fraction = digits.slice(-SCALE).replace(/0+$/, "");
  return fraction ? `${digits.slice(0, -SCALE)}.${fraction}` : digits.slice(0, -SCALE);
}

/** The limits as a key answers them: each limit present, amounts in their shortest form, null where left out. */
export function spendingLimitsAnswer(limits: readonly MockSpendingLimit[] | undefined): Array<Required<MockSpendingLimit>> {
  return (limits ?? []).map((l) => ({
    asset: l.asset,
    perCall: l.perCall ? fromUnits(toUnits(l.perCall)) : null,
    per24h: l.per24h ? fromUnits(toUnits(l.per24h)) : null,
  }));
}

/** Every key's spends of the last 24 hours. */
export class SpendingLedger {
  private spends = new Map<string, Array<{ asset: string; units: bigint; at: number }>>();

  reset(): void {
    this.spends.clear();
  }

  /** Counts the call of `operationId` against `limits` (the caller's key, named by `token`): the refusal, or undefined
   * when it fits (then it is counted) or moves no money. */
  charge(
    token: string,
    limits: readonly MockSpendingLimit[] | undefined,
    operationId: string,
    body: Body,
    now: Date,
  ): MockError | undefined {
    if (!limits || limits.length === 0) return undefined;
    const movement = MOVEMENTS[operationId]?.(body);
    if (!movement?.asset) return undefined;
    const { asset } = movement;
    const units =
      movement.amount !== undefined
        ? toUnits(movement.amount)
        : movement.minor !== undefined
          ? BigInt(movement.minor) * 10n ** BigInt(SCALE - Math.min(ASSET_DECIMALS[asset] ?? 0, SCALE))
          : undefined;
    if (units === undefined) return undefined;
    const since = now.getTime() - DAY_MS;
    const kept = (this.spends.get(token) ?? []).filter((s) => s.at > since);
    this.spends.set(token, kept);
    const used = kept.filter((s) => s.asset === asset).reduce((sum, s) => sum + s.units, 0n);
    const limit = limits.find((l) => l.asset === asset);
    const refuse = (which: "perCall" | "per24h", maximum: bigint, message: string): MockError => ({
      code: "FORBIDDEN",
      message,
      extensions: {
        spendingLimit: { asset, limit: which, maximum: fromUnits(maximum), used: fromUnits(used), requested: fromUnits(units) },
      },
    });
    if (!limit) return refuse("perCall", 0n, `This API key has spending limits and none for ${asset}: it may not move ${asset}`);
    if (limit.perCall && units > toUnits(limit.perCall))
      return refuse(
        "perCall",
        toUnits(limit.perCall),
        `${fromUnits(units)} ${asset} is over this API key's per-call limit of ${fromUnits(toUnits(limit.perCall))}`,
      );
    if (limit.per24h && used + units > toUnits(limit.per24h))
      return refuse(
        "per24h",
        toUnits(limit.per24h),
        `${fromUnits(units)} ${asset} would take this API key past its 24-hour limit of ${fromUnits(toUnits(limit.per24h))} (${fromUnits(used)} used)`,
      );
    kept.push({ asset, units, at: now.getTime() });
    return undefined;
  }
}
