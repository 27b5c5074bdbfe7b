// `npm run docs`: builds the docs portal into docs/portal/index.html (not committed; GET /docs serves it when present).
// Redocly's build-docs renders the bundled spec (openapi/generated/openapi.yaml) with docs/getting-started.md and
// docs/webhooks.md placed in front of the reference (as info.description, so their sections appear in the portal's
// navigation), and the simulators' magic values collected from the operation descriptions. Scripts are inlined: the portal loads nothing from elsewhere.
// `--best-effort` (used by `npm start`): a failed build warns instead of failing.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import YAML from "yaml";
import type { Doc } from "./sdk-generator/spec.ts";
import { WEBHOOKS_GUIDE, withCatalogue } from "./webhook-catalogue.ts";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const PORTAL_DIR = path.join(root, "docs", "portal");

type Json = Record<string, unknown>;
const METHODS = ["get", "put", "post", "delete", "patch"];
/** Code blocks wrap instead of scrolling sideways: with overlay scrollbars (macOS, headless) a long line (a sample's
 * URL, a CLI command) otherwise looks cut off at the panel's edge. Only the display wraps; copying keeps the lines. */
const WRAP_CODE = "pre, pre code { white-space: pre-wrap !important; overflow-wrap: anywhere; word-break: normal; }";
/** Redoc options the CLI has no flag for. The code-sample languages it offers, in order: each operation's
 * `x-codeSamples` (scripts/code-samples.ts) is matched by label — curl and SDK; Payload is the request body example.
 * `x-error-codes` is shown under each operation's title: the codes it answers per status (the error responses are
 * shared per status, their examples cover every code of it; docs/design.md "Error responses in the contract"). */
const REDOC_OPTIONS = {
  showExtensions: ["x-error-codes"],
  codeSamples: {
    languages: [
      { key: "curl", label: "curl", lang: "bash" },
      { key: "sdk", label: "SDK", lang: "typescript" },
      { key: "payload", label: "Payload", lang: "payload" },
    ],
  },
};
const EMPTY_SVG = "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' width='1' height='1'/%3E";

/** Every description paragraph that mentions magic values (and the table right after it), grouped by identical text. */
export function collectMagicValues(spec: Json): string {
  const groups = new Map<string, string[]>();
  for (const [p, item] of Object.entries(spec.paths as Record<string, Json>)) {
    for (const method of METHODS) {
      const op = item[method] as Json | undefined;
      if (!op || typeof op.description !== "string") continue;
      const blocks = op.description.split(/\n\s*\n/);
      const picked: string[] = [];
      blocks.forEach((block, i) => {
        if (!/magic/i.test(block) || block.trimStart().startsWith("|")) return;
        picked.push(block.trim());
        const next = blocks[i + 1];
        if (next?.trimStart().startsWith("|")) picked.push(next.trim());
      });
      if (picked.length === 0) continue;
      const text = picked.join("\n\n");
      const label = `\`${method.toUpperCase()} ${p}\` (${String(op.summary ?? op.operationId)})`;
      groups.set(text, [...(groups.get(text) ?? []), label]);
    }
  }
  if (groups.size === 0) return "_No operation documents magic values._";
  return [...groups.entries()]
    .map(
      ([text, labels]) =>
        `## ${labels.length === 1 ? labels[0] : `${labels.length} operations`}\n\n${labels.length > 1 ? `Applies to ${labels.join(", ")}.\n\n` : ""}${text}`,
    )
    .join("\n\n");
}

export function buildDocs(outDir = PORTAL_DIR): string {
  const { "x-generated": _notice, ...spec } = JSON.parse(readFileSync(path.join(root, "openapi/generated/openapi.json"), "utf8")) as Json;
  const guide = readFileSync(path.join(root, "docs/getting-started.md"), "utf8").replace("<!-- magic-values -->", collectMagicValues(spec));
  // The webhooks guide's event catalogue is regenerated here too, so the portal never shows a stale one.
  const webhooksGuide = withCatalogue(readFileSync(WEBHOOKS_GUIDE, "utf8"), spec as Doc);
  const info = spec.info as Json;
  const portalSpec = { ...spec, info: { ...info, description: `${String(info.description ?? "")}\n\n${guide}\n\n${webhooksGuide}` } };
  const tmp = mkdtempSync(path.join(tmpdir(), "coinplane-docs-"));
  try {
    const input = path.join(tmp, "openapi.yaml");
    writeFileSync(input, YAML.stringify(portalSpec, { lineWidth: 0 }));
    mkdirSync(outDir, { recursive: true });
    const output = path.join(outDir, "index.html");
    execFileSync(
      path.join(root, "node_modules", ".bin", "redocly"),
      // `--openapi.disableTelemetry`: the page would otherwise send usage traces to Redocly's collector, which the
      // portal's CSP (connect-src 'self') blocks with console errors; REDOCLY_TELEMETRY=off does the same for the CLI.
      [
        "build-docs",
        input,
        "--inlineBundle",
        "--title",
        "Coinplane API",
        "-o",
        output,
        "--lint-config",
        "off",
        "--openapi.disableTelemetry=true",
      ],
      { cwd: root, stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, REDOCLY_TELEMETRY: "off" } },
    );
    // Self-contained: Redoc's attribution logo would load from its CDN, and the browser would ask for /favicon.ico.
    const html = readFileSync(output, "utf8")
      .replace(/https:\/\/cdn\.redoc\.ly\/[A-Za-z0-9/._-]+\.svg/g, EMPTY_SVG)
      .replace("<head>", `<head>\n    <link rel="icon" href="data:,">\n    <style>${WRAP_CODE}</style>`)
      .replace(
        /const __redoc_options = (\{.*\});/,
        (_line, options: string) => `const __redoc_options = ${JSON.stringify({ ...JSON.parse(options), ...REDOC_OPTIONS })};`,
      );
    writeFileSync(output, html);
    return output;
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** True when the built portal is newer than everything it is built from. */
function portalIsFresh(): boolean {
  const portal = path.join(PORTAL_DIR, "index.html");
  if (!existsSync(portal)) return false;
  const inputs = [
    path.join(root, "openapi", "generated", "openapi.json"),
    path.join(root, "docs", "getting-started.md"),
    WEBHOOKS_GUIDE,
    fileURLToPath(import.meta.url),
  ];
  const built = statSync(portal).mtimeMs;
  return inputs.every((input) => !existsSync(input) || statSync(input).mtimeMs <= built);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const bestEffort = process.argv.includes("--best-effort");
  // `--out <dir>`: scripts/ensure-start-builds.ts builds into a temporary folder and renames the file into place.
  const out = process.argv.includes("--out") ? process.argv[process.argv.indexOf("--out") + 1] : undefined;
  // `npm start` (best effort) does not rebuild a portal that is already up to date: start-up stays fast.
  if (bestEffort && portalIsFresh()) process.exit(0);
  try {
    console.log(`docs portal: ${path.relative(root, buildDocs(out))}`);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    if (!bestEffort) throw err;
    console.warn(`docs portal not built (${message.split("\n")[0]}); GET /docs answers 404 until \`npm run docs\` succeeds`);
  }
}
