// treasury/mint and treasury/burn (Sandbox only: simulated): checks the request against the issuer and the chain, then
// records an issuance request awaiting four-eyes approval. No transaction is prepared, signed or sent — now or after
// approval.
import type { AuthContext } from "../../context.ts";
import type { Db } from "../../db/open-database.ts";
import { notFound, ServiceError } from "../../errors/service-error.ts";
import type { components } from "../../generated/openapi.ts";
import { Prisma } from "../../generated/prisma/client.ts";
import type { Tx } from "../../idempotency/idempotency-store.ts";
import { newId } from "../../lib/ids.ts";
import { resolveProvider } from "../../providers/resolve-provider.ts";
import { recordActivity } from "../activity/record-activity.ts";
import { createApprovalRequest } from "../approvals/create-approval-request.ts";
import { precheckAddress } from "./addresses.ts";
import { assertChainCapability } from "./chain-capabilities.ts";
import { type IssuanceRequestDto, toIssuanceRequestDto } from "./issuance-request-dto.ts";
import { readToken } from "./read-token.ts";
import { resolveChainReader } from "./resolve-chain-reader.ts";

type MintRequest = components["schemas"]["MintRequest"];
type BurnRequest = components["schemas"]["BurnRequest"];

export type IssuanceInput = { kind: "mint"; request: MintRequest } | { kind: "burn"; request: BurnRequest };

/** The action an issuance approval names; the approval binds it and the payload (issuer, amount, signer, holder). */
export const issuanceAction = (kind: "mint" | "burn") => `treasury.${kind}`;

const precheck = (path: string, message: string) => new ServiceError("PRECHECK_FAILED", message, { errors: [{ path, message }] });

export async function requestIssuance(options: {
  prisma: Db;
  auth: AuthContext;
  input: IssuanceInput;
}): Promise<(tx: Tx) => Promise<IssuanceRequestDto>> {
  const { prisma, auth, input } = options;
  const { request, kind } = input;
  // Sandbox only: the sandbox simulator serves sandbox keys; production fails closed without a reviewed connection.
  const provider = await resolveProvider({ prisma, auth, category: "token_issuance", sandboxFallback: true });
  const issuer = await prisma.issuer.findFirst({
    where: { id: request.issuerId, organizationId: auth.organizationId, environment: auth.environment },
  });
  if (!issuer) throw notFound("Issuer");
  await assertChainCapability(prisma, auth.organizationId, issuer.chain, "mintBurn");

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
  if (kind === "burn") {
    const reader = await resolveChainReader(prisma, auth, issuer.chain);
    const reading = await readToken({
      prisma,
      auth,
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
  }

  return async (tx) => {
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
      reason: request.reason ?? null,
    };
    const approval = await createApprovalRequest(tx, {
      auth,
      kind: "issuance",
      action: issuanceAction(kind),
      scope: "wallets:write",
      payload,
      resourceId: id,
    });
    const row = await tx.issuanceRequest.create({
      data: {
        id,
        organizationId: auth.organizationId,
        environment: auth.environment,
        issuerId: issuer.id,
        kind,
        amountMinor: new Prisma.Decimal(amount.toString()),
        signerAddress: signer,
        toAddress: kind === "mint" ? holder : null,
        fromAddress: kind === "burn" ? holder : null,
        reason: request.reason ?? null,
        approvalRequestId: approval.approvalRequestId,
        requestedByActor: auth.actor,
        requestedByKeyId: auth.apiKeyId,
        simulated: provider.simulated,
        createdAt: new Date(approval.createdAt),
        expiresAt: new Date(approval.expiresAt),
      },
    });
    await recordActivity(tx, {
      organizationId: auth.organizationId,
      environment: auth.environment,
      type: "issuance_request.created",
      resourceId: row.id,
    });
    const approvalRow = await tx.approvalRequest.findUniqueOrThrow({ where: { id: approval.approvalRequestId } });
    return toIssuanceRequestDto(row, approvalRow, issuer);
  };
}
