import type { AuthContext } from "../../context.ts";
import type { Queryable } from "../../db/kysely.ts";
import { newestFirstPage, type PageWindow } from "../../db/newest-first-page.ts";
import { ownedBy } from "../../db/owned-by.ts";
import type { components } from "../../generated/openapi.ts";
import { unknownCursor } from "../lists/page-window.ts";
import { type ProjectStage, SUMMARY_COLUMNS, toProjectSummary } from "./lifecycle.ts";

/** The caller's contract projects, newest first, as summaries: no source, no stage outputs (GET by id has them). The
 * issuer id comes in the same statement, as in getContractProject. */
export async function listContractProjects(
  db: Queryable,
  options: { auth: AuthContext; window: PageWindow; stage?: ProjectStage },
): Promise<components["schemas"]["ContractProjectList"]> {
  const { auth, window, stage } = options;
  const scoped = db
    .selectFrom("ContractProject")
    .select(SUMMARY_COLUMNS)
    .select((eb) => eb.selectFrom("Issuer").select("Issuer.id").whereRef("Issuer.projectId", "=", "ContractProject.id").as("issuerId"))
    .where(ownedBy(auth));
  const page = await newestFirstPage(scoped, {
    ...window,
    unknownCursor: unknownCursor("a contract project"),
    filter: (query) => (stage === undefined ? query : query.where("stage", "=", stage)),
  });
  return {
    data: page.rows.map(({ issuerId, ...project }) => toProjectSummary(project, issuerId)),
    hasMore: page.hasMore,
    nextCursor: page.nextCursor,
  };
}
