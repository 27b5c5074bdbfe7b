// docs/webhooks.md: its event catalogue is the one generated from the spec's `webhooks` (npm run generate rewrites it),
// every event type of the spec is in it, and the guide states the retry schedule of the configuration defaults.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { catalogueEntries, WEBHOOKS_GUIDE, withCatalogue } from "../../scripts/webhook-catalogue.ts";
import { DEFAULT_WEBHOOK_RETRY_SCHEDULE_SECONDS } from "../../server/config.ts";
import { loadSpec } from "../../server/spec/load-spec.ts";

const spec = loadSpec() as never;
const guide = readFileSync(WEBHOOKS_GUIDE, "utf8");

describe("docs/webhooks.md", () => {
  it("has the current event catalogue (run `npm run generate` when this fails)", () => {
    expect(guide).toBe(withCatalogue(guide, spec));
  });

  it("lists every event type of the spec with its data schema", () => {
    const entries = catalogueEntries(spec);
    expect(entries.length).toBeGreaterThan(0);
    for (const e of entries) {
      expect(guide, e.type).toContain(`| \`${e.type}\` |`);
      expect(e.data, `${e.type}: data should reference a component schema`).toBeDefined();
      expect(e.when, `${e.type}: the webhook needs a summary`).not.toBe("");
    }
  });

  it("documents the default retry schedule", () => {
    const label = (s: number) => (s < 60 ? `${s} s` : s < 3600 ? `${s / 60} min` : `${s / 3600} h`);
    const row = guide.split("\n").find((line) => line.startsWith("| Delay before it |"));
    expect(row).toBe(`| Delay before it | — | ${DEFAULT_WEBHOOK_RETRY_SCHEDULE_SECONDS.map(label).join(" | ")} |`);
  });
});
