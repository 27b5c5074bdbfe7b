// "Last used" of API keys, off the request path: authentication notes the use in memory, and a write per key goes out
// at most once a minute per process, shortly after the answer. It lands in ApiKeyUsage, not ApiKey: every ApiKey update
// drops every instance's cached copy of the key (the change feed), which a use must not do.
import { sql } from "kysely";
import type { Queryable } from "../db/kysely.ts";

const EVERY_MS = 60_000;

export interface KeyUsageRecorder {
  note(apiKeyId: string, at?: Date): void;
  /** Writes what is pending (tests, and shutdown). */
  flush(): Promise<void>;
}

export function keyUsageRecorder(db: Queryable, onError: (error: unknown) => void = () => {}): KeyUsageRecorder {
  const lastWritten = new Map<string, number>();
  const pending = new Map<string, Date>();
  let timer: NodeJS.Timeout | undefined;
  let inFlight: Promise<void> = Promise.resolve();

  async function write(): Promise<void> {
    timer = undefined;
    const batch = [...pending.entries()];
    pending.clear();
    if (batch.length === 0) return;
    await db
      .insertInto("ApiKeyUsage")
      .values(batch.map(([apiKeyId, lastUsedAt]) => ({ apiKeyId, lastUsedAt })))
      .onConflict((oc) =>
        oc.column("apiKeyId").doUpdateSet({ lastUsedAt: sql`greatest("ApiKeyUsage"."lastUsedAt", excluded."lastUsedAt")` }),
      )
      .execute()
      .catch(onError);
  }

  return {
    note(apiKeyId, at = new Date()) {
      const last = lastWritten.get(apiKeyId);
      if (last !== undefined && at.getTime() - last < EVERY_MS) return;
      lastWritten.set(apiKeyId, at.getTime());
      pending.set(apiKeyId, at);
      timer ??= setTimeout(() => {
        inFlight = write();
      }, 200).unref();
    },
    async flush() {
      if (timer) {
        clearTimeout(timer);
        inFlight = write();
      }
      await inFlight;
    },
  };
}
