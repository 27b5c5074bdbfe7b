import type { AuthContext } from "../../context.ts";
import type { Db } from "../../db/open-database.ts";
import { isUniqueViolation } from "../../errors/database-errors.ts";
import { ServiceError } from "../../errors/service-error.ts";
import type { components } from "../../generated/openapi.ts";
import { newId } from "../../lib/ids.ts";
import type { CardIssuerFailure } from "../../providers/card-issuer.ts";
import { recordActivity } from "../activity/record-activity.ts";
import { enforceCompliance } from "../compliance/enforce-compliance.ts";
import { ASSET_DECIMALS, type Stablecoin } from "../money/assets.ts";
import { beginCardWrite } from "./begin-card-write.ts";
import { callCardIssuer } from "./call-card-issuer.ts";
import { programmeFundingAccount, SANDBOX_TEST_FUNDS_ACCOUNT } from "./card-accounts.ts";
import { cardComplianceSubject } from "./card-compliance-subject.ts";
import { type CardProgrammeDto, toCardProgrammeDto } from "./card-programme-dto.ts";
import { guardCardWrite } from "./guard-card-write.ts";
import { postLedgerJournal } from "./post-ledger-journal.ts";
import type { PreparedCardWrite } from "./prepared-card-write.ts";
import { resolveCardIssuer } from "./resolve-card-issuer.ts";
import { SANDBOX_PROGRAMME_FUNDS_UNITS } from "./sandbox-programme-funds.ts";

type Request = components["schemas"]["CreateCardProgrammeRequest"];

const nameTaken = (name: string) =>
  new ServiceError("CARD_RECORD_CONFLICT", `A card programme named "${name}" already exists in this organization`);

/** Creates an active programme and credits its funding account with the sandbox test funds, after screening its
 * jurisdictions. */
export async function createCardProgramme(options: {
  prisma: Db;
  auth: AuthContext;
  request: Request;
  simulate?: CardIssuerFailure;
  requestId: string;
}): Promise<PreparedCardWrite<CardProgrammeDto>> {
  const { prisma, auth, request, simulate, requestId } = options;
  const issuer = await resolveCardIssuer({ prisma, auth, simulate });
  const subdivisions = request.jurisdictions.filter((j) => j.includes("-"));
  if (subdivisions.length > 0) {
    throw new ServiceError("CARD_REQUEST_REJECTED", `Programmes cover whole countries; not a country: ${subdivisions.join(", ")}`, {
      errors: [{ path: "/body/jurisdictions", message: "must list ISO 3166-1 countries, not subdivisions" }],
    });
  }
  const scope = { organizationId: auth.organizationId, environment: auth.environment };
  if (await prisma.cardProgramme.findFirst({ where: { ...scope, name: request.name }, select: { id: true } })) {
    throw nameTaken(request.name);
  }
  await enforceCompliance({
    prisma,
    auth,
    subject: cardComplianceSubject({ operation: "createCardProgramme", programme: request }),
    requestId,
  });
  return {
    status: 201,
    conflict: "CARD_RECORD_CONFLICT",
    async commit(tx) {
      await beginCardWrite(tx);
      const id = newId("cprg");
      const { reference } = await callCardIssuer(() => issuer.api.createProgramme(issuer.ctx, { programmeId: id, ...request }));
      const programme = await guardCardWrite("record", async () => {
        try {
          return await tx.cardProgramme.create({
            data: {
              id,
              ...scope,
              name: request.name,
              network: request.network,
              binSponsor: request.binSponsor,
              jurisdictions: request.jurisdictions,
              fundingAsset: request.fundingAsset,
              fundingModel: request.fundingModel,
              status: "active",
              providerSlug: issuer.providerSlug,
              providerReference: reference,
              connectionId: issuer.connectionId,
              simulated: issuer.simulated,
            },
          });
        } catch (error) {
          if (isUniqueViolation(error)) throw nameTaken(request.name);
          throw error;
        }
      });
      const decimals = ASSET_DECIMALS[request.fundingAsset as Stablecoin];
      // The programme record and its funding account's opening posting succeed or fail together (as the record).
      await postLedgerJournal(tx, auth, {
        journalId: id,
        kind: "sandbox_test_funds",
        programmeId: id,
        cardId: null,
        asset: request.fundingAsset,
        transfers: [
          {
            from: SANDBOX_TEST_FUNDS_ACCOUNT,
            to: programmeFundingAccount(id),
            amountMinor: SANDBOX_PROGRAMME_FUNDS_UNITS * 10n ** BigInt(decimals),
          },
        ],
        failAs: "record",
      });
      await recordActivity(tx, { ...scope, type: "card_programme.created", resourceId: id });
      return toCardProgrammeDto(programme);
    },
  };
}
