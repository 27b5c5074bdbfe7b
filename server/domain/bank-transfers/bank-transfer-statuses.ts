// The bank transfer state machine (documented on `BankTransferStatus`), apart from the reads and writes that apply it,
// so the rules can be checked without a database.

export const TERMINAL_BANK_STATUSES: ReadonlySet<string> = new Set(["completed", "failed", "returned", "cancelled"]);

/** Moves the provider may report from each non-terminal state. */
const PROVIDER_MOVES: Readonly<Record<string, readonly string[]>> = {
  pending: ["processing", "cancelled", "failed"],
  processing: ["completed", "failed", "returned", "cancelled"],
};

const CANCELLABLE: ReadonlySet<string> = new Set(["pending", "processing"]);

export const isTerminalBankStatus = (status: string): boolean => TERMINAL_BANK_STATUSES.has(status);

/** Whether a provider's report of `reported` for a transfer stored as `stored` can be recorded (an unchanged status
 * always can; anything else is a provider fault). */
export const isAcceptedProviderReport = (stored: string, reported: string): boolean =>
  reported === stored || (PROVIDER_MOVES[stored]?.includes(reported) ?? false);

/** Only `pending` and `processing` transfers can be cancelled through bank-transfer/cancel. */
export const isCancellableBankStatus = (status: string): boolean => CANCELLABLE.has(status);
