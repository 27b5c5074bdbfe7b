// Issue 28: one layer map, drawn in docs/architecture.md and enforced by .dependency-cruiser.cjs, with the same parts
// and folders. This reads the parts from the configuration (its non-enumerable `layers`) and from the drawing between
// the layer-map markers, and holds them equal; checks every server module belongs to exactly one part; and cruises a
// throwaway tree where each part imports every part above it, so the rule is seen to fail on an upward import.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { cruiseImports, type Violation } from "../helpers/cruise-imports.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");

interface Layer {
  name: string;
  folders: string[];
  path: string;
}
const LAYERS: Layer[] = createRequire(import.meta.url)(path.join(ROOT, ".dependency-cruiser.cjs")).layers;

/** The drawing: a part's line starts at column 0 with its name and folders; its folders may continue on lines indented
 * to the folders' column (11); the description is indented further and is not read. */
function layersInDocs(): Array<{ name: string; folders: string[] }> {
  const doc = readFileSync(path.join(ROOT, "docs/architecture.md"), "utf8");
  const block = doc.split("<!-- layer-map:start -->")[1]?.split("<!-- layer-map:end -->")[0];
  if (block === undefined) throw new Error("docs/architecture.md has no layer-map markers");
  const parts: Array<{ name: string; folders: string[] }> = [];
  const foldersOf = (text: string) =>
    text
      .split(",")
      .map((folder) => folder.trim())
      .filter(Boolean);
  for (const line of block.split("\n")) {
    const head = /^(?<name>[a-z]+) +(?<folders>\S.*)$/.exec(line)?.groups;
    const last = parts.at(-1);
    if (head) parts.push({ name: head.name ?? "", folders: foldersOf(head.folders ?? "") });
    else if (/^ {11}\S/.test(line) && last) last.folders.push(...foldersOf(line));
  }
  return parts;
}

/** A module path inside a folder of the map ("routes/" → server/routes/probe.ts, "main.ts" → server/main.ts). */
function moduleIn(folder: string | undefined): string {
  if (folder === undefined) throw new Error("a part of the map lists no folder");
  return folder.endsWith("/") ? `server/${folder}probe.ts` : `server/${folder}`;
}

function serverModules(dir = "server"): string[] {
  return readdirSync(path.join(ROOT, dir)).flatMap((name) => {
    const relative = `${dir}/${name}`;
    if (statSync(path.join(ROOT, relative)).isDirectory()) return serverModules(relative);
    return /\.(ts|js|mjs|cjs)$/.test(name) ? [relative] : [];
  });
}

describe("the layer map (issue 28)", () => {
  it("has the issue's six parts, top to bottom", () => {
    expect(LAYERS.map((layer) => layer.name)).toEqual(["http", "workers", "domain", "providers", "data", "base"]);
  });

  it("docs/architecture.md draws the same parts with the same folders as .dependency-cruiser.cjs", () => {
    expect(layersInDocs()).toEqual(LAYERS.map(({ name, folders }) => ({ name, folders })));
  });

  it.each(LAYERS.map((layer) => [layer.name, layer] as const))("the folders of %s are the ones its rule matches", (_, layer) => {
    for (const folder of layer.folders) {
      const owners = LAYERS.filter((candidate) => new RegExp(candidate.path).test(moduleIn(folder))).map((owner) => owner.name);
      expect({ folder, owners }).toEqual({ folder, owners: [layer.name] });
    }
  });

  it("every server module belongs to exactly one part", () => {
    const modules = serverModules();
    expect(modules.length).toBeGreaterThan(300);
    const misplaced = modules
      .map((module) => ({ module, parts: LAYERS.filter((layer) => new RegExp(layer.path).test(module)).map((layer) => layer.name) }))
      .filter(({ parts }) => parts.length !== 1);
    expect(misplaced).toEqual([]);
  });
});

describe("an import against the map fails the cruise", () => {
  // Each part's first folder imports the first folder of every part above it.
  const UPWARD = LAYERS.flatMap((lower, index) =>
    LAYERS.slice(0, index).map((upper) => [moduleIn(lower.folders[0]), moduleIn(upper.folders[0]), `${lower.name}-points-down`] as const),
  );
  let violations: Violation[] = [];

  beforeAll(() => {
    violations = cruiseImports(UPWARD.map(([from, to]) => [from, to] as const));
  }, 60_000);

  it("covers every upward pair of parts", () => {
    expect(UPWARD).toHaveLength((LAYERS.length * (LAYERS.length - 1)) / 2);
  });

  it.each(UPWARD)("%s → %s breaks %s", (from, to, rule) => {
    const broken = violations.filter((v) => v.from === from && v.to === to).map((v) => v.rule.name);
    expect(broken).toContain(rule);
  });
});
