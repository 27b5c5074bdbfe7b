import type { components } from "../../generated/openapi.ts";
import type { CardProgrammeRow } from "./card-rows.ts";

export type CardProgrammeDto = components["schemas"]["CardProgramme"];

export function toCardProgrammeDto(programme: CardProgrammeRow): CardProgrammeDto {
  return {
    programmeId: programme.id,
    name: programme.name,
    network: programme.network as CardProgrammeDto["network"],
    binSponsor: programme.binSponsor,
    jurisdictions: programme.jurisdictions,
    fundingAsset: programme.fundingAsset as CardProgrammeDto["fundingAsset"],
    fundingModel: programme.fundingModel as CardProgrammeDto["fundingModel"],
    // `pending` while its creation is being confirmed, `failed` when the issuer never created it (issue 26).
    status: programme.status as CardProgrammeDto["status"],
    simulated: true,
    createdAt: programme.createdAt.toISOString(),
  };
}
