import type { Db } from "../../db/open-database.ts";

/**
 * The organization row, created on first use: `INSERT … ON CONFLICT DO NOTHING` (createMany with skipDuplicates), so
 * concurrent first uses of one organization all succeed and leave one row. (Prisma's `upsert` is a read then an insert
 * here: two requests both read nothing, and the second insert failed on the unique key → 500.) A concurrent inserter's
 * row blocks this insert until it commits, then counts as the conflict. Returns the unawaited query, to run in a batch
 * `$transaction` before the row that references the organization.
 */
export function ensureOrganization(prisma: Db, organizationId: string) {
  return prisma.organization.createMany({ data: [{ id: organizationId }], skipDuplicates: true });
}
