// Secrets the server makes for itself are kept in a file only its owner reads (server/lib/secret-file.ts); the start
// prints the path, never the value (test/system/start-and-stop.test.ts checks the printed side).
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { keepSecretFile } from "../../server/lib/secret-file.ts";

const dir = mkdtempSync(path.join(tmpdir(), "coinplane-secret-file-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("keepSecretFile", () => {
  it("makes the secret once (mode 0600, folder created), then reads it back", () => {
    const folder = path.join(dir, "data");
    let made = 0;
    const first = keepSecretFile(folder, "token", () => `secret-${++made}`);
    expect(first).toEqual({ value: "secret-1", file: path.join(folder, "token"), created: true });
    expect(statSync(first.file).mode & 0o777).toBe(0o600);
    expect(readFileSync(first.file, "utf8")).toBe("secret-1\n");
    expect(keepSecretFile(folder, "token", () => `secret-${++made}`)).toEqual({ ...first, created: false });
    expect(made).toBe(1);
  });
});
