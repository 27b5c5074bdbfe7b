// The unit of work of every write (one concern per file):
//   run-unit.ts           runUnitOfWork: the flow of a write, keyed or not, top to bottom (start here)
//   unit.ts               UnitOfWork: the open transaction and the rows it writes in its closing statement
//   idempotency-claim.ts  the key's record: read first (replay, 409, 422), written at close, the stored answer
//   provider-step.ts      afterProviderCall: two transactions around a provider call, reconcilable intents
//   stranded-claims.ts    claims a request could not settle, released once the database answers again
//   keys-to-read-first.ts the keys whose check at close did not pay off here: read first from then on
//   types.ts              the shapes shared with callers
// Callers import from here only.
export { answerKeyRecord } from "./idempotency-claim.ts";
export { KeysToReadFirst } from "./keys-to-read-first.ts";
export { afterProviderCall, type PendingProviderStep, type ProviderStep } from "./provider-step.ts";
export { CONFLICT_ATTEMPTS, runUnitOfWork } from "./run-unit.ts";
export { releaseStrandedClaim } from "./stranded-claims.ts";
export type {
  ClaimReleaser,
  ErrorRenderer,
  IdempotencyClaim,
  Outcome,
  SentResponse,
  StepFaults,
  StoredBodyCodec,
  StrandedClaim,
  UnitOfWorkOptions,
} from "./types.ts";
export { flushDeferred, UnitOfWork } from "./unit.ts";
