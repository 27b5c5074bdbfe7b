// treasury/mint and treasury/burn (Sandbox only: simulated): checks the request against the issuer and the chain, then
// records an issuance request awaiting four-eyes approval. No transaction is prepared, signed or sent — now or after
// approval.

import type { SandboxChainLogStore } from "../../chain/sandbox-chain-log.ts";
import type { AuthContext } from "../../context.ts";
import { ownedBy } from "../../db/owned-by.ts";
import { afterProviderCall, type ProviderStep, type UnitOfWork } from "../../db/unit-of-work/index.ts";
import { notFound, ServiceError } from "../../errors/service-error.ts";
import type { components } from "../../generated/openapi.ts";
import { newId } from "../../lib/ids.ts";
import type { OperationOutcome } from "../../spec/operation-types.ts";
import { recordActivity } from "../activity/record-activity.ts";
import { createApprovalRequest } from "../approvals/create-approval-request.ts";
import { resolveProvider } from "../providers/resolve-provider.ts";
import { chargeSpendingLimit, type MoneyMovement } from "../spending-limits/charge-spending-limit.ts";
import { minorToDecimal } from "../spending-limits/spending-limit-rules.ts";
import { precheckAddress } from "./addresses.ts";
import { assertChainCapability } from "./chain-capabilities.ts";
import { type IssuanceRequestRow, type IssuerRef, toIssuanceRequestDto } from "./issuance-request-dto.ts";
import { emitIssuanceEvent } from "./issuance-request-events.ts";
import { readToken } from "./read-token.ts";
import { resolveChainReader } from "./resolve-chain-reader.ts";

type MintRequest = components["schemas"]["MintRequest"];
type BurnRequest = components["schemas"]["BurnRequest"];

export type IssuanceInput = { kind: "mint"; request: MintRequest } | { kind: "burn"; request: BurnRequest };

/** The action an issuance approval names; the approval binds it and the payload (issuer, amount, signer, holder). */
export const issuanceAction = (kind: "mint" | "burn") => `treasury.${kind}`;

const precheck = (path: string, message: string) => new ServiceError("PRECHECK_FAILED", message, { errors: [{ path, message }] });

/** Mint and burn answer alike: the recorded request (201). */
type IssuanceOutcome = Extract<OperationOutcome<"requestMint"> & OperationOutcome<"requestBurn">, { status: 201 }>;

/**
 * A mint: one transaction. A burn: two, because it checks the holder's balance through the chain reader, a provider
 * adapter (a JSON-RPC node waits up to its timeout): the first transaction checks the request (and answers a replay),
 * the balance is read with no transaction open, and the second records the approval and issuance requests. A balance
 * too low is the key's answer; nothing is recorded before the second transaction.
 */
export async function requestIssuance(
  uow: UnitOfWork,
  options: {
    /** The sandbox chain's log on the database (the data part's sandboxChainLogOf(db), never the transaction), for the
     * chain reader. */
    chainLog: SandboxChainLogStore;
    auth: AuthContext;
    input: IssuanceInput;
    /** The request's Idempotency-Key with its method and path: the spend of a key with spending limits records it. */
    idempotencyKey?: string;
  },
): Promise<IssuanceOutcome | ProviderStep<unknown, IssuanceOutcome>> {
  const { chainLog, auth, input, idempotencyKey } = options;
  const { request, kind } = input;
  // Sandbox only: the sandbox simulator serves sandbox keys; production fails closed without a reviewed connection.
  const provider = await resolveProvider({ db: uow.tx, auth, category: "token_issuance", sandboxFallback: true });
  const issuer = await uow.tx
    .selectFrom("Issuer")
    .select(["id", "chain", "contractAddress", "asset", "decimals", "signers"])
    .where("id", "=", request.issuerId)
    .where(ownedBy(auth))
    .executeTakeFirst();
  if (!issuer) throw notFound("Issuer");
  await assertChainCapability(uow.tx, auth.organizationId, issuer.chain, "mintBurn");

  const amount = BigInt(request.amountMinor);
  if (amount === 0n) throw precheck("/body/amountMinor", "amountMinor is zero");
  const signer = precheckAddress("/body/signerAddress", request.signerAddress);
  if (!issuer.signers.some((s) => s.toLowerCase() === signer.toLowerCase())) {
    throw precheck("/body/signerAddress", `${signer} is not an authorised signer of issuer ${issuer.id}`);
  }
  const holderPath = kind === "mint" ? "/body/to" : "/body/from";
  const holder = precheckAddress(holderPath, kind === "mint" ? input.request.to : input.request.from);
  if (holder.toLowerCase() === issuer.contractAddress.toLowerCase()) {
    throw precheck(holderPath, `${holder} is the token contract itself`);
  }
  // Counted against the key's spending limits in the issuer's token, in the transaction that records the request.
  const spend = { asset: issuer.asset, amount: minorToDecimal(request.amountMinor, issuer.decimals) };
  const checked = {
    kind,
    issuer,
    amount,
    signer,
    holder,
    reason: request.reason ?? null,
    simulated: provider.simulated,
    spend,
    idempotencyKey,
  };
  if (kind === "mint") return record(uow, auth, checked);

  const reader = await resolveChainReader(uow.tx, auth, issuer.chain);
  return afterProviderCall({
    async call() {
      const reading = await readToken({
        chainLog,
        reader,
        chain: issuer.chain,
        contractAddress: issuer.contractAddress,
        holders: [holder],
        notATokenCode: "PRECHECK_FAILED",
        path: "/body/issuerId",
      });
      const balance = BigInt(reading.balances[holder] ?? "0");
      if (amount > balance) {
        throw precheck(
          "/body/amountMinor",
          `amountMinor ${amount} exceeds the on-chain balance of ${holder} (${balance}) at block ${reading.blockNumber}`,
        );
      }
    },
    onResult: (uow2) => record(uow2, auth, checked),
  });
}

interface CheckedIssuance {
  kind: "mint" | "burn";
  issuer: IssuerRef & { id: string };
  amount: bigint;
  signer: string;
  holder: string;
  reason: string | null;
  simulated: boolean;
  spend: MoneyMovement;
  idempotencyKey: string | undefined;
}

/** Records the issuance request and its pending four-eyes approval request. */
async function record(uow: UnitOfWork, auth: AuthContext, checked: CheckedIssuance): Promise<IssuanceOutcome> {
  const { kind, issuer, amount, signer, holder, reason } = checked;
  // A burn is counted here, after the holder's balance was read: a burn refused for its balance spends nothing.
  await chargeSpendingLimit(uow, { auth, movement: checked.spend, idempotencyKey: checked.idempotencyKey });
  const id = newId("ir");
  const payload = {
    issuanceRequestId: id,
    kind,
    issuerId: issuer.id,
    chain: issuer.chain,
    contractAddress: issuer.contractAddress,
    amountMinor: amount.toString(),
    signerAddress: signer,
    ...(kind === "mint" ? { to: holder } : { from: holder }),
    reason,
  };
  const approval = await createApprovalRequest(uow, {
    auth,
    kind: "issuance",
    action: issuanceAction(kind),
    scope: "wallets:write",
    payload,
    resourceId: id,
  });
  const row: IssuanceRequestRow = {
    id,
    organizationId: auth.organizationId,
    environment: auth.environment,
    issuerId: issuer.id,
    kind,
    amountMinor: amount.toString(),
    signerAddress: signer,
    toAddress: kind === "mint" ? holder : null,
    fromAddress: kind === "burn" ? holder : null,
    reason,
    approvalRequestId: approval.approvalRequestId,
    requestedByActor: auth.actor,
    requestedByKeyId: auth.apiKeyId,
    simulated: checked.simulated,
    createdAt: new Date(approval.createdAt),
    expiresAt: new Date(approval.expiresAt),
  };
  // Nothing reads it back in this request: written at commit.
  uow.insertLater("IssuanceRequest", row);
  recordActivity(uow, {
    organizationId: auth.organizationId,
    environment: auth.environment,
    type: "issuance_request.created",
    resourceId: id,
  });
  // A new approval request is pending and undecided.
  const pending = { status: "pending", decidedByActor: null, decidedByKeyId: null, decidedAt: null, decisionReason: null };
  const body = toIssuanceRequestDto(row, { ...pending, expiresAt: row.expiresAt }, issuer, uow.now);
  emitIssuanceEvent(uow, body, auth);
  return { status: 201, body };
}
