import type { AuthContext } from "../../context.ts";
import type { Queryable } from "../../db/kysely.ts";
import { ownedBy } from "../../db/owned-by.ts";
import { notFound } from "../../errors/service-error.ts";
import { type ContractProjectDto, selectStageRuns, toProjectDto } from "./lifecycle.ts";

/** The project with its issuer id, and its runs, in two statements sent together. */
export async function getContractProject(
  db: Queryable,
  { auth, projectId }: { auth: AuthContext; projectId: string },
): Promise<ContractProjectDto> {
  const [project, runs] = await Promise.all([
    db
      .selectFrom("ContractProject as p")
      .selectAll("p")
      .select((eb) => eb.selectFrom("Issuer as i").whereRef("i.projectId", "=", "p.id").select("i.id").as("issuerId"))
      .where("p.id", "=", projectId)
      .where(ownedBy(auth, "p"))
      .executeTakeFirst(),
    // The runs carry the project's organization and environment: another key's project yields none.
    selectStageRuns(db, projectId).where(ownedBy(auth)).execute(),
  ]);
  if (!project) throw notFound("Contract project");
  const { issuerId, ...row } = project;
  return toProjectDto(row, runs, issuerId);
}
