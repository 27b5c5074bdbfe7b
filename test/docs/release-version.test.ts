// One release, one version (issue 38): the contract's info.version, the CHANGELOG's last release, and the version of
// every package (root, SDK, console, and their lock entries) agree; the public reference (the contract and the guides
// the portal puts in front of it) speaks of versions, never of our tracker's issue numbers.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";

const root = path.resolve(import.meta.dirname, "../..");
const read = (file: string) => readFileSync(path.join(root, file), "utf8");
const json = (file: string) => JSON.parse(read(file)) as Record<string, unknown>;

/** The first `## x.y.z` heading of the CHANGELOG (the Unreleased section comes before it). */
function changelogRelease(): string {
  const release = /^## (\d+\.\d+\.\d+)\b/m.exec(read("CHANGELOG.md"))?.[1];
  if (!release) throw new Error("CHANGELOG.md names no release");
  return release;
}

describe("release version", () => {
  const release = changelogRelease();

  it("the contract's info.version is the CHANGELOG's release, in the source and in the bundle", () => {
    expect((parse(read("openapi/openapi.yaml")) as { info: { version: string } }).info.version).toBe(release);
    expect((json("openapi/generated/openapi.json").info as { version: string }).version).toBe(release);
  });

  it.each(["package.json", "sdk/package.json", "console/package.json"])("%s carries it", (file) => {
    expect(json(file).version).toBe(release);
  });

  it("package-lock.json records it for the root and each workspace", () => {
    const packages = json("package-lock.json").packages as Record<string, { version?: string }>;
    expect(json("package-lock.json").version).toBe(release);
    for (const entry of ["", "sdk", "console"]) expect(packages[entry]?.version, entry || "root").toBe(release);
  });
});

describe("the public reference names versions, not issues", () => {
  it.each(["openapi/generated/openapi.json", "docs/getting-started.md", "docs/webhooks.md", "docs/members.md"])("%s", (file) => {
    expect(read(file).match(/\b(since )?issue #?\d+/gi) ?? []).toEqual([]);
  });
});
