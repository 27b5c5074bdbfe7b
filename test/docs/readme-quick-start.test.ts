// The README's quick start, copy-pasted: its ```bash blocks run verbatim, in order, in one shell, against a fresh
// sandbox, and reach a created payment without an edit. The first block (`npm ci && npm start`, `npm test`) is what
// started that sandbox: it is checked to be only that and replaced by the already running server process.
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bashBlocks, ROOT, type Sandbox, type ShellResult, startSandbox } from "./sandbox.ts";

const readme = readFileSync(path.join(ROOT, "README.md"), "utf8");
const quickStart = /^## Quick start\n([\s\S]*?)^## /m.exec(readme)?.[1] ?? "";
const blocks = bashBlocks(quickStart);

/** A one-line JSON response body (curl prints them so), else nothing: the CLI's pretty-printed output spans lines. */
function jsonLine(line: string): Array<Record<string, unknown>> {
  try {
    const value = JSON.parse(line) as unknown;
    return value && typeof value === "object" ? [value as Record<string, unknown>] : [];
  } catch {
    return [];
  }
}

let sandbox: Sandbox;
let run: ShellResult;

beforeAll(async () => {
  sandbox = await startSandbox();
  run = await sandbox.bash(blocks.slice(1).join("\n"));
}, 180_000);
afterAll(() => sandbox?.close());

describe("README quick start", () => {
  it("starts with the block that installs and starts the server (replaced here by the running server)", () => {
    const lines = (blocks[0] ?? "").split("\n").filter((line) => line.trim() !== "");
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(line).toMatch(/^npm ci && npm (start|test)\b/);
  });

  it("has no placeholder to edit in its commands", () => {
    expect(blocks.join("\n")).not.toMatch(/…|<[a-z_ ]+>|YOUR_|xxx/i);
  });

  it("runs every command without an error", () => {
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
    expect(run.stderr).not.toMatch(/error/i);
  });

  it("every curl call answers 2xx", () => {
    const curls =
      blocks
        .slice(1)
        .join("\n")
        .match(/^curl /gm) ?? [];
    expect(curls.length).toBeGreaterThanOrEqual(4);
    expect(run.statuses).toHaveLength(curls.length);
    for (const status of run.statuses) expect(status, run.stdout).toBeGreaterThanOrEqual(200);
    for (const status of run.statuses) expect(status, run.stdout).toBeLessThan(300);
  });

  it("reaches a created payment", () => {
    const payment = run.stdout
      .split("\n")
      .flatMap(jsonLine)
      .find((body) => typeof body.id === "string" && body.id.startsWith("pay_"));
    expect(payment, run.stdout).toMatchObject({ status: "confirmed", amount: "125.50", stablecoin: "USDC" });
  });

  it("ends with the samples' setup step, after which a reference sample runs as printed", () => {
    expect(blocks.at(-1)).toContain('eval "$(npm run -s samples:setup)"');
    const card = run.stdout
      .split("\n")
      .flatMap(jsonLine)
      .find((body) => typeof body.cardId === "string");
    expect(card, run.stdout).toMatchObject({ status: "active", simulated: true });
  });
});
