import type { AuthContext } from "../../context.ts";
import { findOwned, ownedBy } from "../../db/owned-by.ts";
import type { PendingProviderStep, UnitOfWork } from "../../db/unit-of-work/index.ts";
import { isUniqueViolation } from "../../errors/classify-failure.ts";
import { notFound, ServiceError } from "../../errors/service-error.ts";
import type { components } from "../../generated/openapi.ts";
import { newId } from "../../lib/ids.ts";
import type { CardIssuerFailure, IssuedCard } from "../../providers/capabilities/card-issuing.ts";
import type { SimulatedCardIssuerStore } from "../../providers/capabilities/simulated-card-issuer-store.ts";
import type { OperationOutcome } from "../../spec/operation-types.ts";
import { recordActivity } from "../activity/record-activity.ts";
import { enforceCompliance } from "../compliance/enforce-compliance.ts";
import { connectProvider } from "../providers/connect-provider.ts";
import { afterCardIssuerCall } from "./after-card-issuer-call.ts";
import { cardComplianceSubject } from "./card-compliance-subject.ts";
import { toCardDto } from "./card-dto.ts";
import { emitCardEvent } from "./card-events.ts";
import type { CardholderRow } from "./card-rows.ts";
import { CARD_ISSUE } from "./card-write-intents.ts";
import { guardCardWrite } from "./guard-card-write.ts";
import type { IssueCardRequest } from "./issue-card-request.ts";
import { validateCardLimits } from "./validate-card-limits.ts";

type NewCardholder = components["schemas"]["Cardholder"];

/** Countries whose issuers need a billing state or province. */
const STATE_REQUIRED = new Set(["US", "CA"]);

const emailTaken = (email: string) =>
  new ServiceError(
    "CARD_RECORD_CONFLICT",
    `A cardholder with email ${email} already exists in this organization; issue with its cardholderId`,
  );

/** Issues an active card with a zero balance to an existing cardholder, a new one or none, after screening the
 * cardholder (when there is one), the programme's jurisdictions and the per-authorization limit. Two transactions (see afterCardIssuerCall): the card (and
 * a new cardholder) is written `pending`, the issuer issues it, then it turns `active` with the issuer's details — or,
 * when the issuer refused, is deleted again.
 *
 * Reconcilable (issue 26): the first transaction also opens a `card.issue` intent, the card id being the issuer's
 * idempotency key. When the issuer's answer is lost (a timeout: it may have issued the card) the card stays `pending`
 * (readable, not writable) and is answered 202; the reconciler (reconcile-card-issue.ts) asks the issuer by the card id
 * and activates it or fails it. A crash between the two transactions leaves it to the reconciler the same way. */
export async function issueCard(
  uow: UnitOfWork,
  options: {
    auth: AuthContext;
    /** Tagged at the HTTP edge (issueCardRequest). */
    request: IssueCardRequest;
    simulate?: CardIssuerFailure;
    requestId: string;
    /** The sandbox simulator's books (a live issuer ignores them). */
    books: SimulatedCardIssuerStore;
  },
): Promise<PendingProviderStep<OperationOutcome<"issueCard">>> {
  const { auth, request, simulate, requestId, books } = options;
  const issuer = await connectProvider(uow.tx, auth, "card_issuance", { now: uow.now });
  const scope = { organizationId: auth.organizationId, environment: auth.environment };
  const programme = await uow.tx
    .selectFrom("CardProgramme")
    .selectAll()
    .where("id", "=", request.programmeId)
    .where(ownedBy(scope))
    .where("status", "=", "active")
    .executeTakeFirst();
  if (!programme) throw notFound("Card programme");

  let existing: CardholderRow | undefined;
  let created: NewCardholder | null = null;
  if (request.kind === "existing-cardholder") {
    existing = await findOwned(uow.tx, "Cardholder", request.cardholderId, scope, "Cardholder");
  } else if (request.kind === "new-cardholder") {
    created = request.cardholder;
  }
  // A card with no cardholder (only `programmeId`) has no one to check against the programme's jurisdictions.
  const holder = existing ?? created ?? undefined;
  const address = holder?.billingAddress as NewCardholder["billingAddress"] | undefined;
  const field = existing ? "cardholderId" : "cardholder.billingAddress.country";
  if (address && !programme.jurisdictions.includes(address.country)) {
    throw new ServiceError(
      "CARD_REQUEST_REJECTED",
      `The cardholder's billing country ${address.country} is not one of the programme's jurisdictions (${programme.jurisdictions.join(", ")})`,
      {
        errors: [{ path: `/body/${field.replaceAll(".", "/")}`, message: "billing country must be one of the programme's jurisdictions" }],
      },
    );
  }
  if (created && address && STATE_REQUIRED.has(address.country) && !address.state) {
    throw new ServiceError("CARD_REQUEST_REJECTED", `cardholder.billingAddress.state is required for ${address.country}`, {
      errors: [{ path: "/body/cardholder/billingAddress/state", message: `is required for ${address.country}` }],
    });
  }
  const limits = request.limits ?? {};
  validateCardLimits(limits, programme.fundingAsset);
  if (created) {
    const sameEmail = await uow.tx
      .selectFrom("Cardholder")
      .select("id")
      .where(ownedBy(scope))
      .where("email", "=", created.email)
      .executeTakeFirst();
    if (sameEmail) throw emailTaken(created.email);
  }

  await enforceCompliance({
    uow,
    auth,
    subject: cardComplianceSubject({
      operation: "issueCard",
      programme,
      cardholder: holder,
      amount: limits.perAuthorization ? { value: limits.perAuthorization, currency: programme.fundingAsset } : undefined,
    }),
    requestId,
  });

  const cardId = newId("card");
  const cardholderId = existing
    ? existing.id
    : !created
      ? null
      : await guardCardWrite("record", async () => {
          const data = created as NewCardholder;
          try {
            const row = await uow.tx
              .insertInto("Cardholder")
              .values({
                id: newId("chd"),
                ...scope,
                name: data.name,
                email: data.email,
                phoneNumber: data.phoneNumber ?? null,
                dateOfBirth: data.dateOfBirth ?? null,
                billingAddress: JSON.stringify(data.billingAddress),
                createdAt: uow.now,
              })
              .returning("id")
              .executeTakeFirstOrThrow();
            return row.id;
          } catch (error) {
            if (isUniqueViolation(error)) throw emailTaken(data.email);
            throw error;
          }
        });
  const card = await guardCardWrite("record", () =>
    uow.tx
      .insertInto("Card")
      .values({
        id: cardId,
        ...scope,
        programmeId: programme.id,
        cardholderId,
        status: "pending",
        last4: "",
        expMonth: 0,
        expYear: 0,
        brand: programme.network,
        limits: JSON.stringify(limits),
        providerReference: "",
        simulated: issuer.simulated,
        createdAt: uow.now,
        updatedAt: uow.now,
      })
      .returningAll()
      .executeTakeFirstOrThrow(),
  );

  return afterCardIssuerCall<IssuedCard, OperationOutcome<"issueCard">>({
    intent: { family: CARD_ISSUE, resourceId: cardId, reference: cardId, ...scope },
    call: () =>
      issuer.api.issueCard(issuer.context({ simulate, idempotencyKey: cardId, books }), {
        cardId,
        programmeReference: programme.providerReference,
        network: programme.network,
        cardholderName: holder?.name ?? null,
        perAuthorization: limits.perAuthorization,
      }),
    async confirm(uow2, issued) {
      const details = {
        status: "active",
        last4: issued.last4,
        expMonth: issued.expMonth,
        expYear: issued.expYear,
        providerReference: issued.reference,
      };
      uow2.deferLater((db) =>
        db
          .updateTable("Card")
          .set({ ...details, updatedAt: uow2.now })
          .where("id", "=", cardId)
          .where("status", "=", "pending"),
      );
      recordActivity(uow2, { ...scope, type: "card.issued", resourceId: cardId });
      const body = toCardDto({ ...card, ...details }, programme.fundingAsset, { availableMinor: 0n, pendingMinor: 0n });
      emitCardEvent(uow2, scope, "card.issued", cardId, body);
      return { status: 201, body };
    },
    // The issuer may have issued it: the card stays `pending` (readable, no write), no event, until the reconciler
    // confirms it.
    unknown: async () => ({
      status: 202,
      body: toCardDto(card, programme.fundingAsset, { availableMinor: 0n, pendingMinor: 0n }),
    }),
    async compensate(uow2) {
      await uow2.tx.deleteFrom("Card").where("id", "=", cardId).execute();
      if (created && cardholderId) await uow2.tx.deleteFrom("Cardholder").where("id", "=", cardholderId).execute();
    },
  });
}
