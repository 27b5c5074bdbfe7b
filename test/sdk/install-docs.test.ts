// `@coinplane/sdk` is not on the npm registry (see "Install" in sdk/README.md): no command in the docs may tell an
// integrator to install it from there. When the first version is published, this test goes together with the tarball
// instructions (sdk/README.md, "Publishing", step 5).
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");
const docs = [
  "README.md",
  "sdk/README.md",
  ...readdirSync(path.join(root, "docs"))
    .filter((f) => f.endsWith(".md"))
    .map((f) => `docs/${f}`),
];
const REGISTRY_INSTALL = /\b(?:npm\s+(?:install|i|add)|yarn\s+add|pnpm\s+(?:add|install|i))\b[^\n]*?(?<![\w./-])@coinplane\/sdk\b/;

/** The fenced code blocks of a Markdown file. */
const codeBlocks = (markdown: string) => [...markdown.matchAll(/^```[^\n]*\n([\s\S]*?)^```/gm)].map((m) => m[1] ?? "");

describe("install instructions", () => {
  it.each(docs)("%s runs no registry install of @coinplane/sdk", (file) => {
    const commands = codeBlocks(readFileSync(path.join(root, file), "utf8")).flatMap((block) => block.split("\n"));
    expect(commands.filter((line) => REGISTRY_INSTALL.test(line))).toEqual([]);
  });

  it("recognises the command it forbids, and not a tarball or folder install", () => {
    expect(REGISTRY_INSTALL.test("npm install @coinplane/sdk")).toBe(true);
    expect(REGISTRY_INSTALL.test("pnpm add @coinplane/sdk@0.1.0")).toBe(true);
    expect(REGISTRY_INSTALL.test("npm install /path/to/coinplane/sdk/coinplane-sdk-0.1.0.tgz")).toBe(false);
    expect(REGISTRY_INSTALL.test("npm run build -w @coinplane/sdk")).toBe(false);
  });

  it("the getting-started guide and the SDK README show the tarball install, named after the current version", () => {
    const { version } = JSON.parse(readFileSync(path.join(root, "sdk/package.json"), "utf8")) as { version: string };
    for (const file of ["docs/getting-started.md", "sdk/README.md"]) {
      const commands = codeBlocks(readFileSync(path.join(root, file), "utf8")).join("\n");
      expect(commands, file).toMatch(/cd sdk && npm pack/);
      expect(commands, file).toContain(`npm install /path/to/coinplane/sdk/coinplane-sdk-${version}.tgz`);
    }
  });
});
