// The event catalogue of docs/webhooks.md, generated from the spec's top-level `webhooks` (one entry per event type):
// `npm run generate` rewrites the table between the markers, test/sdk/webhook-docs.test.ts fails when it is stale, and
// the docs portal shows the guide with it. Run alone: `tsx scripts/webhook-catalogue.ts`.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { type Doc, deref, type Json, jsonContent, objectProperties, schemaName } from "./sdk-generator/spec.ts";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const WEBHOOKS_GUIDE = path.join(root, "docs", "webhooks.md");
export const CATALOGUE_START = "<!-- event-catalogue:start (generated from the spec's webhooks by npm run generate) -->";
export const CATALOGUE_END = "<!-- event-catalogue:end -->";

export interface CatalogueEntry {
  type: string;
  /** The webhook's summary (else the first sentence of its description). */
  when: string;
  /** The component schema of `data`, if it names one. */
  data: string | undefined;
}

const cell = (text: string) => text.replace(/\s+/g, " ").replace(/\|/g, "\\|").trim();

export function catalogueEntries(doc: Doc): CatalogueEntry[] {
  return Object.entries((doc.webhooks ?? {}) as Record<string, Json>).map(([type, item]) => {
    const post = deref(doc, deref(doc, item).post);
    const description = typeof post.description === "string" ? (post.description.split(/(?<=\.)\s/)[0] ?? "") : "";
    const when = typeof post.summary === "string" && post.summary ? post.summary : description;
    const media = jsonContent(doc, post.requestBody)?.media;
    const data = media ? schemaName(objectProperties(doc, media.schema).properties.data) : undefined;
    return { type, when: cell(when), data };
  });
}

/** The markdown table (sorted by type, so related events sit together). */
export function renderCatalogue(doc: Doc): string {
  const entries = catalogueEntries(doc).sort((a, b) => a.type.localeCompare(b.type));
  if (entries.length === 0) return "_The contract defines no event types yet._";
  const rows = entries.map((e) => `| \`${e.type}\` | ${e.when} | ${e.data ? `\`${e.data}\`` : "—"} |`);
  return [`${entries.length} event types.`, "", "| Event type | When | `data` |", "|---|---|---|", ...rows].join("\n");
}

/** The guide with its catalogue replaced by the one rendered from `doc`. */
export function withCatalogue(guide: string, doc: Doc): string {
  const start = guide.indexOf(CATALOGUE_START);
  const end = guide.indexOf(CATALOGUE_END);
  if (start < 0 || end < start)
    throw new Error(`docs/webhooks.md: the catalogue markers are missing (${CATALOGUE_START} … ${CATALOGUE_END})`);
  return `${guide.slice(0, start + CATALOGUE_START.length)}\n\n${renderCatalogue(doc)}\n\n${guide.slice(end)}`;
}

/** Rewrites docs/webhooks.md's catalogue from the bundled spec; true when the file changed. */
export function updateWebhooksGuide(doc: Doc): boolean {
  const guide = readFileSync(WEBHOOKS_GUIDE, "utf8");
  const next = withCatalogue(guide, doc);
  if (next === guide) return false;
  writeFileSync(WEBHOOKS_GUIDE, next);
  return true;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const doc = JSON.parse(readFileSync(path.join(root, "openapi/generated/openapi.json"), "utf8")) as Doc;
  console.log(updateWebhooksGuide(doc) ? "docs/webhooks.md: event catalogue updated" : "docs/webhooks.md: event catalogue current");
}
