import type { AuthContext } from "../../context.ts";
import type { Db } from "../../db/open-database.ts";
import { type ContractProjectDto, findProject, projectDto } from "./lifecycle.ts";

export async function getContractProject(prisma: Db, auth: AuthContext, projectId: string): Promise<ContractProjectDto> {
  return projectDto(prisma, await findProject(prisma, auth, projectId));
}
