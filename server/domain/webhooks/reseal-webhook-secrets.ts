// The last step of a WEBHOOK_SECRETS_KEY rotation (README "Operations"): every endpoint secret still sealed under the
// previous key is opened and sealed again under the current one, so the previous key can be dropped. Each row is updated
// only if its sealed values are still the ones read (an endpoint rotated meanwhile is left as the rotation wrote it,
// already under the current key). Safe to run again: a secret that opens under the current key is left alone.
import type { Queryable } from "../../db/kysely.ts";
import { openSecret, openSecretWithAny, sealSecret } from "../../lib/webhooks/secret-box.ts";

const BATCH = 200;

function opensWith(sealed: string, key: Buffer): boolean {
  try {
    openSecret(sealed, key);
    return true;
  } catch {
    return false;
  }
}

/** Returns how many endpoints were resealed, and how many hold a secret that opens under neither key (left as is). */
export async function resealWebhookSecrets(
  db: Queryable,
  keys: { current: Buffer; previous: Buffer },
): Promise<{ resealed: number; unreadable: number }> {
  let resealed = 0;
  let unreadable = 0;
  let after = "";
  for (;;) {
    const rows = await db
      .selectFrom("WebhookEndpoint")
      .select(["id", "secretSealed", "previousSecretSealed"])
      .where("id", ">", after)
      .orderBy("id")
      .limit(BATCH)
      .execute();
    for (const row of rows) {
      const reseal = (sealed: string) =>
        opensWith(sealed, keys.current) ? sealed : sealSecret(openSecretWithAny(sealed, [keys.previous]), keys.current);
      try {
        const secretSealed = reseal(row.secretSealed);
        const previousSecretSealed = row.previousSecretSealed === null ? null : reseal(row.previousSecretSealed);
        if (secretSealed === row.secretSealed && previousSecretSealed === row.previousSecretSealed) continue;
        const updated = await db
          .updateTable("WebhookEndpoint")
          .set({ secretSealed, previousSecretSealed })
          .where("id", "=", row.id)
          .where("secretSealed", "=", row.secretSealed)
          .where((w) =>
            row.previousSecretSealed === null
              ? w("previousSecretSealed", "is", null)
              : w("previousSecretSealed", "=", row.previousSecretSealed),
          )
          .executeTakeFirst();
        if (Number(updated.numUpdatedRows) === 1) resealed++;
      } catch {
        unreadable++;
      }
    }
    if (rows.length < BATCH) break;
    after = (rows.at(-1) as { id: string }).id;
  }
  return { resealed, unreadable };
}
