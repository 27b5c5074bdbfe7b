// Every event type of the spec's top-level `webhooks` is emitted somewhere: its string literal appears in a server
// module that emits events (calls emitEvent or an emit…Event helper), outside recordActivity calls (activity types
// share some names). A type added to the spec without a call site, or a call site removed, fails here. The
// webhook_endpoint.* types are emitted by the webhook code (server/webhooks, server/domain/webhooks), the rest by the
// domain and the scheduler; the per-flow tests (test/http/events-emitted-*.test.ts) check each is emitted once.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "../../..");
const spec = JSON.parse(readFileSync(join(ROOT, "openapi/generated/openapi.json"), "utf8")) as { webhooks?: Record<string, unknown> };
const types = Object.keys(spec.webhooks ?? {});

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === "generated" ? [] : sources(path);
    return path.endsWith(".ts") ? [path] : [];
  });
}

/** Each emitting module's text without its recordActivity(…) calls. */
const emitting = sources(join(ROOT, "server"))
  .map((path) => ({ path: path.slice(ROOT.length + 1), text: readFileSync(path, "utf8") }))
  .filter(({ text }) => /\bemit[A-Za-z]*Event\(/.test(text))
  .map(({ path, text }) => ({ path, text: text.replace(/recordActivity\([^;]*\);/g, "") }));

const ELSEWHERE = new Set(["webhook_endpoint.disabled", "webhook_endpoint.tested"]);

describe("event catalogue coverage", () => {
  it("the spec lists the event types", () => {
    expect(types.length).toBeGreaterThanOrEqual(51);
  });

  it.each(types)("%s has an emitting call site", (type) => {
    const sites = emitting.filter(({ text }) => text.includes(`"${type}"`)).map(({ path }) => path);
    const where = ELSEWHERE.has(type) ? /^server\/(webhooks|domain\/webhooks)\// : /^server\/(domain|scheduler)\//;
    expect(
      sites.filter((path) => where.test(path)),
      `no emitting module names "${type}"`,
    ).not.toEqual([]);
  });
});
