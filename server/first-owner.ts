// A fresh sandbox's first owner: on the first start with an empty data folder, one owner invitation for `org_demo` is
// made and its link written to the data folder (like the admin token: the banner prints the file's path, never the
// link's secret). README "Sign in as the first owner" follows it in two steps. Production never does this: the operator
// invites each organization's first owner (`npm run cli -- members invite`).
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import type { Config } from "./config.ts";
import { runBackgroundUnitOfWork } from "./db/background-unit-of-work.ts";
import type { Queryable } from "./db/kysely.ts";
import { ownedByOrganization } from "./db/owned-by.ts";
import { hashToken } from "./domain/access/member-tokens.ts";
import { createInvitation } from "./domain/members/invitations.ts";
import { writeSecretFile } from "./lib/secret-file.ts";

export const DEMO_ORGANIZATION = "org_demo";
export const DEMO_OWNER_EMAIL = "owner@demo.example";
const FILE = "owner-invitation";

/** What a start says about the first owner: a fresh invitation (written now), one still waiting to be accepted (kept in
 * the file), or — once it was used or ran out — nothing to open any more: then the banner says how to sign in (or, for an
 * expired one, how to invite again). A spent link is never advertised: it answers 404. */
export type FirstOwner =
  | { state: "created" | "pending"; file: string }
  | { state: "accepted"; email: string }
  | { state: "expired"; email: string };

export async function ensureFirstOwnerInvitation(db: Queryable, config: Config, dataDir: string): Promise<FirstOwner | undefined> {
  if (config.nodeEnv === "production") return undefined;
  const file = path.join(dataDir, FILE);
  if (existsSync(file)) return stateOfKeptInvitation(db, file);
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
  return { state: "created", file };
}

/** The invitation whose link the file holds (found by its token's hash, the only thing stored of it). */
async function stateOfKeptInvitation(db: Queryable, file: string): Promise<FirstOwner | undefined> {
  const token = /#token=([^\s]+)/.exec(readFileSync(file, "utf8"))?.[1];
  if (!token) return undefined;
  const invitation = await db
    .selectFrom("MemberInvitation")
    .select(["email", "acceptedAt", "expiresAt"])
    .where("tokenHash", "=", hashToken(token))
    .executeTakeFirst();
  if (!invitation) return undefined;
  if (invitation.acceptedAt) return { state: "accepted", email: invitation.email };
  if (invitation.expiresAt.getTime() <= Date.now()) return { state: "expired", email: invitation.email };
  return { state: "pending", file };
}
