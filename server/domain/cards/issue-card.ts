import type { AuthContext } from "../../context.ts";
import type { Db } from "../../db/open-database.ts";
import { isUniqueViolation } from "../../errors/database-errors.ts";
import { notFound, ServiceError } from "../../errors/service-error.ts";
import type { components } from "../../generated/openapi.ts";
import type { Cardholder } from "../../generated/prisma/client.ts";
import { newId } from "../../lib/ids.ts";
import type { CardIssuerFailure } from "../../providers/card-issuer.ts";
import { recordActivity } from "../activity/record-activity.ts";
import { enforceCompliance } from "../compliance/enforce-compliance.ts";
import { beginCardWrite } from "./begin-card-write.ts";
import { callCardIssuer } from "./call-card-issuer.ts";
import { cardComplianceSubject } from "./card-compliance-subject.ts";
import { type CardDto, toCardDto } from "./card-dto.ts";
import { guardCardWrite } from "./guard-card-write.ts";
import type { PreparedCardWrite } from "./prepared-card-write.ts";
import { resolveCardIssuer } from "./resolve-card-issuer.ts";
import { validateCardLimits } from "./validate-card-limits.ts";

type Request = components["schemas"]["IssueCardRequest"];
type NewCardholder = components["schemas"]["Cardholder"];

/** Countries whose issuers need a billing state or province. */
const STATE_REQUIRED = new Set(["US", "CA"]);

const emailTaken = (email: string) =>
  new ServiceError(
    "CARD_RECORD_CONFLICT",
    `A cardholder with email ${email} already exists in this organization; issue with its cardholderId`,
  );

/** Issues an active card with a zero balance to an existing or a new cardholder, after screening the cardholder, the
 * programme's jurisdictions and the per-authorization limit. */
export async function issueCard(options: {
  prisma: Db;
  auth: AuthContext;
  request: Request;
  simulate?: CardIssuerFailure;
  requestId: string;
}): Promise<PreparedCardWrite<CardDto>> {
  const { prisma, auth, request, simulate, requestId } = options;
  const issuer = await resolveCardIssuer({ prisma, auth, simulate });
  const scope = { organizationId: auth.organizationId, environment: auth.environment };
  const programme = await prisma.cardProgramme.findFirst({ where: { id: request.programmeId, ...scope } });
  if (!programme) throw notFound("Card programme");

  let existing: Cardholder | null = null;
  let created: NewCardholder | null = null;
  if ("cardholderId" in request) {
    existing = await prisma.cardholder.findFirst({ where: { id: request.cardholderId, ...scope } });
    if (!existing) throw notFound("Cardholder");
  } else {
    created = request.cardholder;
  }
  const holder = existing ?? (created as NewCardholder);
  const address = holder.billingAddress as NewCardholder["billingAddress"];
  const field = existing ? "cardholderId" : "cardholder.billingAddress.country";
  if (!programme.jurisdictions.includes(address.country)) {
    throw new ServiceError(
      "CARD_REQUEST_REJECTED",
      `The cardholder's billing country ${address.country} is not one of the programme's jurisdictions (${programme.jurisdictions.join(", ")})`,
      {
        errors: [{ path: `/body/${field.replaceAll(".", "/")}`, message: "billing country must be one of the programme's jurisdictions" }],
      },
    );
  }
  if (created && STATE_REQUIRED.has(address.country) && !address.state) {
    throw new ServiceError("CARD_REQUEST_REJECTED", `cardholder.billingAddress.state is required for ${address.country}`, {
      errors: [{ path: "/body/cardholder/billingAddress/state", message: `is required for ${address.country}` }],
    });
  }
  const limits = request.limits ?? {};
  validateCardLimits(limits, programme.fundingAsset);
  if (created && (await prisma.cardholder.findFirst({ where: { ...scope, email: created.email }, select: { id: true } }))) {
    throw emailTaken(created.email);
  }

  await enforceCompliance({
    prisma,
    auth,
    subject: cardComplianceSubject({
      operation: "issueCard",
      programme,
      cardholder: holder,
      amount: limits.perAuthorization ? { value: limits.perAuthorization, currency: programme.fundingAsset } : undefined,
    }),
    requestId,
  });

  return {
    status: 201,
    conflict: "CARD_RECORD_CONFLICT",
    async commit(tx) {
      await beginCardWrite(tx);
      const cardId = newId("card");
      const issued = await callCardIssuer(() =>
        issuer.api.issueCard(issuer.ctx, {
          cardId,
          programmeReference: programme.providerReference,
          network: programme.network,
          cardholderName: holder.name,
        }),
      );
      const cardholderId = existing
        ? existing.id
        : await guardCardWrite("record", async () => {
            const data = created as NewCardholder;
            try {
              const row = await tx.cardholder.create({
                data: {
                  id: newId("chd"),
                  ...scope,
                  name: data.name,
                  email: data.email,
                  phoneNumber: data.phoneNumber ?? null,
                  dateOfBirth: data.dateOfBirth ?? null,
                  billingAddress: data.billingAddress,
                },
              });
              return row.id;
            } catch (error) {
              if (isUniqueViolation(error)) throw emailTaken(data.email);
              throw error;
            }
          });
      const card = await guardCardWrite("record", () =>
        tx.card.create({
          data: {
            id: cardId,
            ...scope,
            programmeId: programme.id,
            cardholderId,
            status: "active",
            last4: issued.last4,
            expMonth: issued.expMonth,
            expYear: issued.expYear,
            brand: programme.network,
            limits,
            providerReference: issued.reference,
            simulated: issuer.simulated,
          },
        }),
      );
      await recordActivity(tx, { ...scope, type: "card.issued", resourceId: card.id });
      return toCardDto(card, programme.fundingAsset, { availableMinor: 0n, pendingMinor: 0n });
    },
  };
}
