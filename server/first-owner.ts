// A fresh sandbox's first owner: on the first start with an empty data folder, one owner invitation for `org_demo` is
// made and its link written to the data folder (like the admin token: the banner prints the file's path, never the
// link's secret). README "Sign in as the first owner" follows it in two steps. Production never does this: the operator
// invites each organization's first owner (`npm run cli -- members invite`).
import { existsSync } from "node:fs";
import path from "node:path";
import type { Config } from "./config.ts";
import { runBackgroundUnitOfWork } from "./db/background-unit-of-work.ts";
import type { Queryable } from "./db/kysely.ts";
import { ownedByOrganization } from "./db/owned-by.ts";
import { createInvitation } from "./domain/members/invitations.ts";
import { writeSecretFile } from "./lib/secret-file.ts";

export const DEMO_ORGANIZATION = "org_demo";
export const DEMO_OWNER_EMAIL = "owner@demo.example";
const FILE = "owner-invitation";

/** The file holding the first owner's invitation link, when this start made one (or an earlier start did). */
export async function ensureFirstOwnerInvitation(
  db: Queryable,
  config: Config,
  dataDir: string,
): Promise<{ file: string; created: boolean } | undefined> {
  if (config.nodeEnv === "production") return undefined;
  const file = path.join(dataDir, FILE);
  if (existsSync(file)) return { file, created: false };
  // Only for a fresh organization: once anyone was invited to org_demo, the operator's CLI takes over.
  const invited = await db.selectFrom("MemberInvitation").select("id").where(ownedByOrganization(DEMO_ORGANIZATION)).executeTakeFirst();
  if (invited) return undefined;
  const origin = config.people.publicUrl ? new URL(config.people.publicUrl).origin : `http://localhost:${config.port}`;
  const created = await runBackgroundUnitOfWork(db, new Date(), (uow) =>
    createInvitation(uow, {
      organizationId: DEMO_ORGANIZATION,
      email: DEMO_OWNER_EMAIL,
      role: "owner",
      invitedBy: null,
      clientAddress: null,
      ttlHours: config.people.invitationTtlHours,
      origin,
    }),
  );
  writeSecretFile(file, created.invitationUrl);
  return { file, created: true };
}
