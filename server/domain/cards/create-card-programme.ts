import type { AuthContext } from "../../context.ts";
import { ownedBy } from "../../db/owned-by.ts";
import type { PendingProviderStep, UnitOfWork } from "../../db/unit-of-work/index.ts";
import { isUniqueViolation } from "../../errors/classify-failure.ts";
import { ServiceError } from "../../errors/service-error.ts";
import type { components } from "../../generated/openapi.ts";
import { newId } from "../../lib/ids.ts";
import type { CardIssuerFailure } from "../../providers/capabilities/card-issuing.ts";
import type { SimulatedCardIssuerStore } from "../../providers/capabilities/simulated-card-issuer-store.ts";
import type { OperationOutcome } from "../../spec/operation-types.ts";
import { recordActivity } from "../activity/record-activity.ts";
import { enforceCompliance } from "../compliance/enforce-compliance.ts";
import { ASSET_DECIMALS, type Stablecoin } from "../money/assets.ts";
import { connectProvider } from "../providers/connect-provider.ts";
import { afterCardIssuerCall } from "./after-card-issuer-call.ts";
import { programmeFundingAccount, SANDBOX_TEST_FUNDS_ACCOUNT } from "./card-accounts.ts";
import { cardComplianceSubject } from "./card-compliance-subject.ts";
import { emitCardEvent } from "./card-events.ts";
import { toCardProgrammeDto } from "./card-programme-dto.ts";
import { CARD_PROGRAMME_CREATE } from "./card-write-intents.ts";
import { guardCardWrite } from "./guard-card-write.ts";
import { deleteLedgerJournals, postLedgerJournal } from "./post-ledger-journal.ts";
import { SANDBOX_PROGRAMME_FUNDS_UNITS } from "./sandbox-programme-funds.ts";

type Request = components["schemas"]["CreateCardProgrammeRequest"];

const nameTaken = (name: string) =>
  new ServiceError("CARD_RECORD_CONFLICT", `A card programme named "${name}" already exists in this organization`);

/** Creates an active programme and credits its funding account with the sandbox test funds, after screening its
 * jurisdictions. Two transactions (see afterCardIssuerCall): the programme is written `pending` with its opening
 * posting, the issuer creates it, then it turns `active` with the issuer's reference — or, when the issuer refused, is
 * deleted again.
 *
 * Reconcilable (issue 26): the first transaction also opens a `card_programme.create` intent, the programme id being the
 * issuer's idempotency key. When the issuer's answer is lost (a timeout: it may have created it) the programme stays
 * `pending` and is answered 202; the reconciler (reconcile-card-programme.ts) asks the issuer by the programme id and
 * activates it or fails it. A crash between the two transactions leaves it to the reconciler the same way. */
export async function createCardProgramme(
  uow: UnitOfWork,
  options: {
    auth: AuthContext;
    request: Request;
    simulate?: CardIssuerFailure;
    requestId: string;
    /** The sandbox simulator's books (a live issuer ignores them). */
    books: SimulatedCardIssuerStore;
  },
): Promise<PendingProviderStep<OperationOutcome<"createCardProgramme">>> {
  const { auth, request, simulate, requestId, books } = options;
  const issuer = await connectProvider(uow.tx, auth, "card_issuance", { now: uow.now });
  const subdivisions = request.jurisdictions.filter((j) => j.includes("-"));
  if (subdivisions.length > 0) {
    throw new ServiceError("CARD_REQUEST_REJECTED", `Programmes cover whole countries; not a country: ${subdivisions.join(", ")}`, {
      errors: [{ path: "/body/jurisdictions", message: "must list ISO 3166-1 countries, not subdivisions" }],
    });
  }
  const scope = { organizationId: auth.organizationId, environment: auth.environment };
  const taken = await uow.tx
    .selectFrom("CardProgramme")
    .select("id")
    .where(ownedBy(scope))
    .where("name", "=", request.name)
    .executeTakeFirst();
  if (taken) throw nameTaken(request.name);
  await enforceCompliance({
    uow,
    auth,
    subject: cardComplianceSubject({ operation: "createCardProgramme", programme: request }),
    requestId,
  });

  const id = newId("cprg");
  const programme = await guardCardWrite("record", async () => {
    try {
      return await uow.tx
        .insertInto("CardProgramme")
        .values({
          id,
          ...scope,
          name: request.name,
          network: request.network,
          binSponsor: request.binSponsor,
          jurisdictions: request.jurisdictions,
          fundingAsset: request.fundingAsset,
          fundingModel: request.fundingModel,
          status: "pending",
          providerSlug: issuer.slug,
          providerReference: "",
          connectionId: issuer.connectionId,
          simulated: issuer.simulated,
          createdAt: uow.now,
          updatedAt: uow.now,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
    } catch (error) {
      if (isUniqueViolation(error)) throw nameTaken(request.name);
      throw error;
    }
  });
  const decimals = ASSET_DECIMALS[request.fundingAsset as Stablecoin];
  // The programme record and its funding account's opening posting succeed or fail together (as the record).
  await postLedgerJournal(uow, auth, {
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

  return afterCardIssuerCall<{ reference: string }, OperationOutcome<"createCardProgramme">>({
    intent: { family: CARD_PROGRAMME_CREATE, resourceId: id, reference: id, ...scope },
    call: () => issuer.api.createProgramme(issuer.context({ simulate, idempotencyKey: id, books }), { programmeId: id, ...request }),
    async confirm(uow2, { reference }) {
      uow2.deferLater((db) =>
        db
          .updateTable("CardProgramme")
          .set({ status: "active", providerReference: reference, updatedAt: uow2.now })
          .where("id", "=", id)
          .where("status", "=", "pending"),
      );
      recordActivity(uow2, { ...scope, type: "card_programme.created", resourceId: id });
      const body = toCardProgrammeDto({ ...programme, status: "active" });
      emitCardEvent(uow2, scope, "card_programme.created", id, body);
      return { status: 201, body };
    },
    // The issuer may have created it: the programme stays `pending` (listed, no card issued under it), no event, until
    // the reconciler confirms it.
    unknown: async () => ({ status: 202, body: toCardProgrammeDto(programme) }),
    async compensate(uow2) {
      await deleteLedgerJournals(uow2.tx, [id]);
      await uow2.tx.deleteFrom("CardProgramme").where("id", "=", id).execute();
    },
  });
}
