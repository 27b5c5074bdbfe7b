import { mkdtempSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../../server/config.ts";
import { generateWebhookSecret, openSecret, parseSecretsKey, sealSecret } from "../../../server/lib/webhooks/secret-box.ts";
import { resolveWebhookSecretsKey } from "../../../server/webhook-secrets-key.ts";

const keyB64 = Buffer.alloc(32, 7).toString("base64");
const key = parseSecretsKey(keyB64);

describe("generateWebhookSecret", () => {
  it("is whsec_ + base64 of 32 random bytes", () => {
    const secret = generateWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice("whsec_".length), "base64")).toHaveLength(32);
    expect(generateWebhookSecret()).not.toBe(secret);
  });
});

describe("sealSecret / openSecret", () => {
  it("round-trips, and the sealed form neither contains the secret nor repeats", () => {
    const secret = generateWebhookSecret();
    const sealed = sealSecret(secret, key);
    expect(sealed).toMatch(/^v1\.[^.]+\.[^.]+\.[^.]+$/);
    expect(sealed).not.toContain(secret.slice(6));
    expect(sealSecret(secret, key)).not.toBe(sealed); // fresh IV each time
    expect(openSecret(sealed, key)).toBe(secret);
  });

  it("detects a changed ciphertext, tag or IV", () => {
    const sealed = sealSecret(generateWebhookSecret(), key);
    const parts = sealed.split(".");
    for (const index of [1, 2, 3]) {
      const changed = [...parts];
      const bytes = Buffer.from(changed[index] as string, "base64");
      bytes[0] = (bytes[0] as number) ^ 1;
      changed[index] = bytes.toString("base64");
      expect(() => openSecret(changed.join("."), key)).toThrow(/authentication failed/);
    }
  });

  it("rejects another key and malformed values", () => {
    const sealed = sealSecret("whsec_abc", key);
    expect(() => openSecret(sealed, Buffer.alloc(32, 8))).toThrow(/authentication failed/);
    expect(() => openSecret("v2.a.b.c", key)).toThrow(/unknown format/);
    expect(() => openSecret("garbage", key)).toThrow(/unknown format/);
    expect(() => sealSecret("whsec_abc", Buffer.alloc(16))).toThrow(/32 bytes/);
  });
});

describe("parseSecretsKey", () => {
  it("accepts base64 of 32 bytes", () => {
    expect(parseSecretsKey(keyB64).equals(Buffer.alloc(32, 7))).toBe(true);
  });
  it.each([
    ["too short", Buffer.alloc(16).toString("base64")],
    ["too long", Buffer.alloc(33).toString("base64")],
    ["not base64", "not*base64!"],
    ["empty", ""],
  ])("rejects %s", (_label, value) => {
    expect(() => parseSecretsKey(value)).toThrow(/WEBHOOK_SECRETS_KEY/);
  });
});

describe("resolveWebhookSecretsKey", () => {
  const dir = () => mkdtempSync(path.join(tmpdir(), "whkey-"));

  it("uses WEBHOOK_SECRETS_KEY when set, and rejects a bad one at start", () => {
    expect(resolveWebhookSecretsKey(loadConfig({ WEBHOOK_SECRETS_KEY: keyB64 }), dir())).toEqual({ key: keyB64, generated: false });
    expect(() => resolveWebhookSecretsKey(loadConfig({ WEBHOOK_SECRETS_KEY: "c2hvcnQ=" }), dir())).toThrow(/32 bytes/);
  });

  it("is required in production", () => {
    const config = loadConfig({ NODE_ENV: "production", ADMIN_TOKEN: "x".repeat(32) });
    config.webhooks.secretsKey = undefined;
    expect(() => resolveWebhookSecretsKey(config, dir())).toThrow(/WEBHOOK_SECRETS_KEY must be set/);
  });

  it("otherwise generates one into the data folder (0600) and reuses it", () => {
    const dataDir = dir();
    const first = resolveWebhookSecretsKey(loadConfig({}), dataDir);
    expect(first.generated).toBe(true);
    expect(parseSecretsKey(first.key)).toHaveLength(32);
    const file = path.join(dataDir, "webhook-secrets-key");
    expect(readFileSync(file, "utf8").trim()).toBe(first.key);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(resolveWebhookSecretsKey(loadConfig({}), dataDir)).toEqual({ key: first.key, generated: false });
  });
});
