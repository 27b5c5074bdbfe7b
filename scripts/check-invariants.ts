// `npm run check:invariants`: scans the database at DATABASE_URL (server/domain/reconcile/invariants.ts says what it
// checks) and exits 1 naming each offender, 0 when none stands. Read-only: safe against a live database.
//   INVARIANT_GRACE_SECONDS (default 60): how long past its deadline an open provider intent (or past its lease an
//   in-progress Idempotency-Key) may stand before it counts.
import { loadConfig } from "../server/config.ts";
import { openDatabase } from "../server/db/open-database.ts";
import { checkInvariants } from "../server/domain/reconcile/invariants.ts";

const config = loadConfig();
const graceSeconds = Number(process.env.INVARIANT_GRACE_SECONDS ?? 60);
if (!Number.isFinite(graceSeconds) || graceSeconds < 0) {
  console.error(`check:invariants: INVARIANT_GRACE_SECONDS must be a number of seconds ≥ 0, got "${process.env.INVARIANT_GRACE_SECONDS}"`);
  process.exit(2);
}
const db = await openDatabase({ url: config.databaseUrl, poolSize: 1, migrate: false, requireMigrated: true });
try {
  const offenders = await checkInvariants(db.kysely, {
    now: new Date(),
    graceSeconds,
    eventRetentionDays: config.webhooks.retentionDays,
  });
  for (const o of offenders) console.error(`${o.check} ${o.id}: ${o.detail}`);
  console.log(`check:invariants: ${offenders.length} offender(s) on ${db.target.label}`);
  if (offenders.length > 0) process.exitCode = 1;
} finally {
  await db.close();
}
