// The TOTP second factor: enrol (a secret answered once, sealed at rest), confirm with a code (recovery codes answered
// once, kept as hashes), verify in a session (a TOTP code, or a recovery code spent by a compare-and-set), disable.

import type { SessionAuth } from "../../context.ts";
import type { UnitOfWork } from "../../db/unit-of-work.ts";
import { ServiceError } from "../../errors/service-error.ts";
import type { components } from "../../generated/openapi.ts";
import { openSecretWithAny, sealSecret } from "../../lib/webhooks/secret-box.ts";
import { hashRecoveryCode, newRecoveryCodes } from "../access/member-tokens.ts";
import { newTotpSecret, totpUri, verifyTotp } from "../access/totp.ts";
import { invalidCredentials } from "./sessions.ts";

export interface SealingKeys {
  /** Seals new secrets. */
  current: Buffer;
  /** Opens secrets sealed under the current or the previous key. */
  all: Buffer[];
}

async function memberRow(uow: UnitOfWork, memberId: string) {
  return uow.tx
    .selectFrom("Member")
    .select(["id", "email", "totpSecretSealed", "totpPendingSealed", "recoveryCodeHashes"])
    .where("id", "=", memberId)
    .forUpdate()
    .executeTakeFirstOrThrow();
}

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
  if (!(await verifyTotp(openSecretWithAny(member.totpPendingSealed, keys.all), code))) throw invalidCredentials();
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
  let valid = await verifyTotp(openSecretWithAny(member.totpSecretSealed, keys.all), code);
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
  if (!valid) throw invalidCredentials();
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
    .set({ totpSecretSealed: null, totpPendingSealed: null, recoveryCodeHashes: [], updatedAt: uow.now })
    .where("id", "=", member.id)
    .execute();
}
