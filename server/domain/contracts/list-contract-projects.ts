import type { AuthContext } from "../../context.ts";
import type { Queryable } from "../../db/kysely.ts";
import { newestFirstPage, type PageWindow } from "../../db/newest-first-page.ts";
import { ownedBy } from "../../db/owned-by.ts";
import { validationError } from "../../errors/service-error.ts";
import type { components } from "../../generated/openapi.ts";
import type { ContractProjectDto, ProjectStage } from "./lifecycle.ts";

type Summary = components["schemas"]["ContractProjectSummary"];

/** The caller's contract projects, newest first, as summaries: no source, no stage outputs (GET by id has them). The
 * issuer id comes in the same statement, as in getContractProject. */
export async function listContractProjects(
  db: Queryable,
  options: { auth: AuthContext; window: PageWindow; stage?: ProjectStage },
): Promise<components["schemas"]["ContractProjectList"]> {
  const { auth, window, stage } = options;
  const scoped = db
    .selectFrom("ContractProject")
    .select([
      "id",
      "template",
      "asset",
      "tokenName",
      "decimals",
      "network",
      "stage",
      "contractName",
      "sourceSha256",
      "version",
      "createdAt",
      "updatedAt",
    ])
    .select((eb) => eb.selectFrom("Issuer").select("Issuer.id").whereRef("Issuer.projectId", "=", "ContractProject.id").as("issuerId"))
    .where(ownedBy(auth));
  const page = await newestFirstPage(scoped, {
    ...window,
    unknownCursor: () => validationError("/query/startingAfter", "is not a contract project of this organization and environment"),
    filter: (query) => (stage === undefined ? query : query.where("stage", "=", stage)),
  });
  const data = page.rows.map(
    (p): Summary => ({
      projectId: p.id,
      template: p.template as ContractProjectDto["template"],
      asset: p.asset,
      tokenName: p.tokenName,
      decimals: p.decimals,
      network: p.network as ContractProjectDto["network"],
      stage: p.stage as ProjectStage,
      contractName: p.contractName,
      sourceSha256: p.sourceSha256,
      issuerId: p.issuerId,
      version: p.version,
      createdAt: p.createdAt.toISOString(),
      updatedAt: p.updatedAt.toISOString(),
    }),
  );
  return { data, hasMore: page.hasMore, nextCursor: page.nextCursor };
}
