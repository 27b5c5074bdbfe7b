import { describe, expect, it } from "vitest";
import type { TestSpecification, Vitest } from "vitest/node";
import LongFilesFirstSequencer from "../long-files-first-sequencer.ts";

const root = "/repo";
const spec = (file: string, project: string, groupOrder: number, size: number) =>
  ({
    moduleId: `${root}/${file}`,
    project: { name: project, config: { sequence: { groupOrder }, isolate: false } },
    size,
  }) as unknown as TestSpecification & { size: number };

/** A clean clone: no timings, so vitest's own order is by size, largest first. */
function sequencer(specs: Array<{ moduleId: string; size: number }>) {
  const sizes = new Map(specs.map((s) => [s.moduleId, s.size]));
  const ctx = {
    config: { root },
    cache: {
      getFileTestResults: () => undefined,
      getFileStats: (key: string) => ({ size: sizes.get(`${root}/${key.slice(key.indexOf(":") + 1)}`) ?? 0 }),
    },
  } as unknown as Vitest;
  return new LongFilesFirstSequencer(ctx);
}

describe("long files first", () => {
  it("starts a small file known to run long first in its project, and keeps groups, projects and the rest in vitest's order", async () => {
    const files = [
      spec("test/system/cluster.test.ts", "postgres-system", 2, 4500),
      spec("test/system/upgrade.test.ts", "postgres-system", 2, 4000),
      spec("test/system/operations.test.ts", "postgres-system", 2, 12000),
      spec("test/system/tracing.test.ts", "postgres-system", 2, 5100),
      spec("test/http/lists.test.ts", "pglite", 0, 100),
      spec("test/http/cards.test.ts", "pglite", 0, 900),
      spec("test/system/faults-postgres.test.ts", "postgres-serial", 3, 20000),
    ];
    const sorted = await sequencer(files).sort(files);
    expect(sorted.map((s) => `${s.project.name} ${s.moduleId.slice(root.length + 1)}`)).toEqual([
      "pglite test/http/lists.test.ts",
      "pglite test/http/cards.test.ts",
      "postgres-system test/system/operations.test.ts",
      "postgres-system test/system/upgrade.test.ts",
      "postgres-system test/system/tracing.test.ts",
      "postgres-system test/system/cluster.test.ts",
      "postgres-serial test/system/faults-postgres.test.ts",
    ]);
  });
});
