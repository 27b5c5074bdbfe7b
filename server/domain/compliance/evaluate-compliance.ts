import type { AuthContext } from "../../context.ts";
import type { Db } from "../../db/open-database.ts";
import { evaluateComplianceInTx } from "./evaluate-compliance-in-tx.ts";
import type { ComplianceResult, ComplianceSubject } from "./types.ts";

/** Screening then policy, recorded in a transaction of its own; answers allow or block and never throws on a block.
 * Call it before opening your own write transaction (on embedded PGlite a second transaction waits for the first). */
export async function evaluateCompliance(options: {
  prisma: Db;
  auth: AuthContext;
  subject: ComplianceSubject;
  requestId?: string;
}): Promise<ComplianceResult> {
  const { prisma, ...rest } = options;
  const { decision, reasons, screeningDecisionId, policyDecisionId } = await prisma.$transaction((tx) =>
    evaluateComplianceInTx({ tx, ...rest }),
  );
  return { decision, reasons, screeningDecisionId, policyDecisionId };
}
