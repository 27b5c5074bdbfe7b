// The first owner's invitation across restarts (server/first-owner.ts, printed by server/start-hints.ts): a first start
// writes it, a restart mentions it only while it is still waiting to be accepted, and once accepted (or expired) the
// banner says how to sign in (or how to invite again) instead of pointing at a link that answers 404.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../server/config.ts";
import { runBackgroundUnitOfWork } from "../../server/db/background-unit-of-work.ts";
import { type Database, openDatabase } from "../../server/db/open-database.ts";
import { acceptInvitation } from "../../server/domain/members/invitations.ts";
import { DEMO_OWNER_EMAIL, ensureFirstOwnerInvitation } from "../../server/first-owner.ts";
import { KEY_COMMAND, startHints } from "../../server/start-hints.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/test-database.ts";

let testDb: TestDatabase;
let db: Database;
let dataDir: string;
const config = loadConfig({ NODE_ENV: "development", PORT: "8080" });
const hints = (firstOwner: Awaited<ReturnType<typeof ensureFirstOwnerInvitation>>) =>
  startHints({ admin: { generated: false, file: undefined }, firstOwner, invitationTtlHours: 72, url: "http://localhost:8080" }).join("\n");

beforeAll(async () => {
  testDb = await createTestDatabase({ migrated: true });
  db = await openDatabase({ url: testDb.url, pgliteTemplate: testDb.pgliteTemplate, poolSize: 2 });
  dataDir = mkdtempSync(path.join(os.tmpdir(), "coinplane-first-owner-"));
});
afterAll(async () => {
  await db?.close();
  await testDb?.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe("the first owner's invitation across restarts", () => {
  it("a first start writes it; a restart keeps advertising it while it is pending", async () => {
    const first = await ensureFirstOwnerInvitation(db.kysely, config, dataDir);
    expect(first).toEqual({ state: "created", file: path.join(dataDir, "owner-invitation") });
    expect(hints(first)).toContain("Owner invitation for org_demo: written to");
    const restart = await ensureFirstOwnerInvitation(db.kysely, config, dataDir);
    expect(restart).toEqual({ state: "pending", file: path.join(dataDir, "owner-invitation") });
    expect(hints(restart)).toContain("Owner invitation for org_demo: kept in");
  });

  it("once accepted, a restart says how to sign in and no longer mentions the spent link", async () => {
    const token = /#token=(\S+)/.exec(readFileSync(path.join(dataDir, "owner-invitation"), "utf8"))?.[1] ?? "";
    await runBackgroundUnitOfWork(db.kysely, new Date(), (uow) =>
      acceptInvitation(uow, { token, name: "Demo Owner", passwordHash: "scrypt$not-used-here", clientAddress: "127.0.0.1" }),
    );
    const restart = await ensureFirstOwnerInvitation(db.kysely, config, dataDir);
    expect(restart).toEqual({ state: "accepted", email: DEMO_OWNER_EMAIL });
    const banner = hints(restart);
    expect(banner).not.toMatch(/Owner invitation|owner-invitation/);
    expect(banner).toContain(`Sign in as ${DEMO_OWNER_EMAIL} at http://localhost:8080/console`);
  });

  it("an invitation that expired unused is not advertised either: the banner says how to invite again", async () => {
    await db.kysely
      .updateTable("MemberInvitation")
      .set({ acceptedAt: null, expiresAt: new Date(Date.now() - 1000) })
      .execute();
    const restart = await ensureFirstOwnerInvitation(db.kysely, config, dataDir);
    expect(restart).toEqual({ state: "expired", email: DEMO_OWNER_EMAIL });
    expect(hints(restart)).toContain("npm run cli -- members invite --org org_demo --email owner@demo.example --role owner");
  });

  it("every banner ends with the README's key command", () => {
    expect(hints(undefined)).toBe(`Create a key: ${KEY_COMMAND}`);
  });
});
