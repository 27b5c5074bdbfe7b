// TEMPORARY during the Kysely migration: removed once every handler answers through respond-with-unit-of-work.ts.
export async function commitWrite(..._args: unknown[]): Promise<void> {
  throw new Error("commitWrite: not converted to the unit of work yet");
}
