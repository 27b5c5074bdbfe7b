// Password hashing with scrypt (node:crypto): a random 16-byte salt per password, parameters from config
// (PASSWORD_SCRYPT_N/_R/_P) stored with each hash, so raising them later applies to new passwords while older hashes
// still verify. Stored form: `scrypt$<N>$<r>$<p>$<salt base64>$<hash base64>`. Never logged, never answered.
import { randomBytes, scrypt, timingSafeEqual } from "node:crypto";

export interface ScryptParameters {
  N: number;
  r: number;
  p: number;
}

const KEY_LENGTH = 32;

function derive(password: string, salt: Buffer, params: ScryptParameters): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    // maxmem: 128·N·r bytes is what scrypt needs; leave headroom so raised parameters do not fail.
    scrypt(password.normalize("NFKC"), salt, KEY_LENGTH, { ...params, maxmem: 256 * params.N * params.r }, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

export async function hashPassword(password: string, params: ScryptParameters): Promise<string> {
  const salt = randomBytes(16);
  const hash = await derive(password, salt, params);
  return ["scrypt", params.N, params.r, params.p, salt.toString("base64"), hash.toString("base64")].join("$");
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split("$");
  if (scheme !== "scrypt" || !salt || !hash) return false;
  const expected = Buffer.from(hash, "base64");
  const actual = await derive(password, Buffer.from(salt, "base64"), { N: Number(n), r: Number(r), p: Number(p) });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

let dummy: Promise<string> | undefined;

/** A hash to verify against when the email is unknown, so a wrong email costs the same time as a wrong password and
 * the answer's timing does not reveal whether an email is a member. */
export function dummyPasswordHash(params: ScryptParameters): Promise<string> {
  dummy ??= hashPassword(randomBytes(16).toString("hex"), params);
  return dummy;
}
