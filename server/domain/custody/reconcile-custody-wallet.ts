// The reconciler's handler for a custody wallet's activation (server/domain/reconcile/): the custody provider is asked by
// the wallet id (the creation's idempotency key) whether it opened the vault. The approval was used up with the intent.
//   - executed: the wallet `active` with the vault's address and id, its `custody_wallet.activated` event and the
//     activity counted once (activateWith) — from `processing` (answered 202) or `pending_approval` (its request died
//     between its two commits);
//   - not executed: `failed` with `not_executed` and its `custody_wallet.failed` event (a new wallet must be requested);
//   - after the last attempt, the provider still unable to answer: `failed` with `outcome_unconfirmed`, naming the last
//     error.
// The key's final answer is 200 with the wallet as it now stands (what shape 2 answers).
import { ownedBy } from "../../db/owned-by.ts";
import type { ClaimedIntent } from "../../db/provider-intents.ts";
import type { UnitOfWork } from "../../db/unit-of-work/index.ts";
import type { ProviderWallet } from "../../providers/capabilities/custody.ts";
import { callProvider } from "../providers/provider-call.ts";
import { type IntentHandler, scopeOf } from "../reconcile/intent-handler.ts";
import { activateWith } from "./create-custody-wallet.ts";
import { type CustodyWalletRow, toCustodyWalletDto } from "./custody-dto.ts";
import { CUSTODY_WALLET_ACTIVATE, moveWallet, WALLET_NOT_EXECUTED, walletOutcomeUnconfirmed } from "./custody-wallet-moves.ts";
import { servingCustodian } from "./serving-custodian.ts";

/** The activation's outcome is still open: `processing` (answered 202) or `pending_approval` (its request died). */
const unsettled = (row: CustodyWalletRow) => row.status === "processing" || row.status === "pending_approval";

const answer = (row: CustodyWalletRow) => ({ status: 200, body: toCustodyWalletDto(row) });

/** The wallet the intent activates, locked for the settling transaction. */
function lockWallet(uow: UnitOfWork, intent: ClaimedIntent) {
  return uow.tx
    .selectFrom("CustodyWallet")
    .selectAll()
    .where(ownedBy(scopeOf(intent)))
    .where("id", "=", intent.resourceId)
    .forUpdate()
    .executeTakeFirst();
}

type Found = { vault: ProviderWallet | null } | { gone: true };

export const custodyWalletActivateHandler: IntentHandler<Found> = {
  family: CUSTODY_WALLET_ACTIVATE,
  async lookup(db, intent) {
    const custodian = await servingCustodian(db, "CustodyWallet", intent);
    if (!custodian) return { gone: true };
    const { api, ctx } = custodian;
    const vault = await callProvider({ provider: "custody", what: "look the wallet up" }, () =>
      api.findWallet(ctx, { idempotencyKey: intent.reference }),
    );
    return { vault };
  },
  async settle(uow, intent, found) {
    const row = await lockWallet(uow, intent);
    if (!row || "gone" in found) return undefined;
    // Settled meanwhile: it keeps that state.
    if (!unsettled(row)) return answer(row);
    if (found.vault) return answer(await activateWith(uow, row, found.vault));
    return answer(await moveWallet(uow, row, { status: "failed", failureReason: WALLET_NOT_EXECUTED }));
  },
  async giveUp(uow, intent, lastError) {
    const row = await lockWallet(uow, intent);
    if (!row) return undefined;
    if (!unsettled(row)) return answer(row);
    return answer(await moveWallet(uow, row, { status: "failed", failureReason: walletOutcomeUnconfirmed(intent.attempts, lastError) }));
  },
};
