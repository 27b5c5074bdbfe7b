// The TOTP second factor: enrol (a secret answered once, sealed at rest), confirm with a code (recovery codes answered
// once, kept as hashes), verify in a session (a TOTP code, or a recovery code spent by a compare-and-set), disable.
// A TOTP code is accepted once per member: its time step must be later than the last one accepted (Member.totpLastStep),
// recorded by a compare-and-set, so a replay on this or another instance is refused like a wrong code.

import type { SessionAuth } from "../../context.ts";
import type { UnitOfWork } from "../../db/unit-of-work/index.ts";
import { ServiceError } from "../../errors/service-error.ts";
import type { components } from "../../generated/openapi.ts";
import { openSecretWithAny, sealSecret } from "../../lib/webhooks/secret-box.ts";
import { hashRecoveryCode, newRecoveryCodes } from "../access/member-tokens.ts";
import { newTotpSecret, totpUri, verifyTotp } from "../access/totp.ts";

export interface SealingKeys {
  /** Seals new secrets. */
  current: Buffer;
  /** Opens secrets sealed under the current or the previous key. */
  all: Buffer[];
}

async function memberRow(uow: UnitOfWork, memberId: string) {
  return uow.tx
    .selectFrom("Member")
    .select(["id", "email", "totpSecretSealed", "totpPendingSealed", "recoveryCodeHashes", "totpLastStep"])
    .where("id", "=", memberId)
    .forUpdate()
    .executeTakeFirstOrThrow();
}

/**
 * Records `step` as the member's last accepted TOTP step if it is later than the one stored; false when another request
 * (here or on another instance) accepted this code or a later one first.
 */
async function spendTotpStep(uow: UnitOfWork, memberId: string, step: number): Promise<boolean> {
  const result = await uow.tx
    .updateTable("Member")
    .set({ totpLastStep: step })
    .where("id", "=", memberId)
    .where((eb) => eb.or([eb("totpLastStep", "is", null), eb("totpLastStep", "<", step)]))
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** A wrong code and a code already used are refused alike (401, counted by the sign-in throttle). */
const invalidCode = () => new ServiceError("INVALID_CREDENTIALS", "The code is wrong or was already used");

export async function beginTotpEnrollment(
  uow: UnitOfWork,
  { session, keys }: { session: SessionAuth; keys: SealingKeys },
): Promise<components["schemas"]["TotpEnrollment"]> {
  const member = await memberRow(uow, session.memberId);
  if (member.totpSecretSealed) throw new ServiceError("STATE_CONFLICT", "A second factor is already enrolled; disable it first");
  const secret = newTotpSecret();
  await uow.tx
    .updateTable("Member")
    .set({ totpPendingSealed: sealSecret(secret, keys.current) })
    .where("id", "=", member.id)
    .execute();
  return { secret, otpauthUri: totpUri(secret, member.email) };
}

export async function confirmTotpEnrollment(
  uow: UnitOfWork,
  { session, code, keys }: { session: SessionAuth; code: string; keys: SealingKeys },
): Promise<components["schemas"]["TotpConfirmation"]> {
  const member = await memberRow(uow, session.memberId);
  if (member.totpSecretSealed || !member.totpPendingSealed)
    throw new ServiceError("STATE_CONFLICT", "No second-factor enrolment is pending");
  const step = await verifyTotp(openSecretWithAny(member.totpPendingSealed, keys.all), code, member.totpLastStep);
  if (step === undefined || !(await spendTotpStep(uow, member.id, step))) throw invalidCode();
  const recoveryCodes = newRecoveryCodes();
  await uow.tx
    .updateTable("Member")
    .set({
      totpSecretSealed: member.totpPendingSealed,
      totpPendingSealed: null,
      recoveryCodeHashes: recoveryCodes.map(hashRecoveryCode),
      updatedAt: uow.now,
    })
    .where("id", "=", member.id)
    .execute();
  // The code just proved the factor: this session counts as verified.
  await uow.tx.updateTable("MemberSession").set({ secondFactorVerified: true }).where("id", "=", session.id).execute();
  return { recoveryCodes };
}

/** Verifies a TOTP code or spends a recovery code; the session is then verified. */
export async function verifySecondFactor(
  uow: UnitOfWork,
  { session, code, keys }: { session: SessionAuth; code: string; keys: SealingKeys },
): Promise<void> {
  const member = await memberRow(uow, session.memberId);
  if (!member.totpSecretSealed) throw new ServiceError("STATE_CONFLICT", "No second factor is enrolled for this member");
  const step = await verifyTotp(openSecretWithAny(member.totpSecretSealed, keys.all), code, member.totpLastStep);
  let valid = step !== undefined && (await spendTotpStep(uow, member.id, step));
  if (!valid) {
    const hash = hashRecoveryCode(code);
    if (member.recoveryCodeHashes.includes(hash)) {
      await uow.tx
        .updateTable("Member")
        .set({ recoveryCodeHashes: member.recoveryCodeHashes.filter((h) => h !== hash) })
        .where("id", "=", member.id)
        .execute();
      valid = true;
    }
  }
  if (!valid) throw invalidCode();
  await uow.tx.updateTable("MemberSession").set({ secondFactorVerified: true }).where("id", "=", session.id).execute();
}

export async function disableTotp(uow: UnitOfWork, session: SessionAuth): Promise<void> {
  if (!session.secondFactorVerified) {
    throw new ServiceError("SECOND_FACTOR_REQUIRED", "Verify the second factor in this session before disabling it");
  }
  const member = await memberRow(uow, session.memberId);
  if (!member.totpSecretSealed) throw new ServiceError("STATE_CONFLICT", "No second factor is enrolled for this member");
  await uow.tx
    .updateTable("Member")
    // The secret is discarded, so are its spent steps: a new secret's first code is not refused for sharing a step.
    .set({ totpSecretSealed: null, totpPendingSealed: null, recoveryCodeHashes: [], totpLastStep: null, updatedAt: uow.now })
    .where("id", "=", member.id)
    .execute();
}
