// The order files start in (vitest.config.ts `sequence.sequencer`). Vitest starts the files it has timed before longest
// first, but a clean clone (CI) has no timings, so it starts the largest files first — and a short file that runs long
// (the upgrade test: 4 KB, ≈ 50 s, one previous release's suite in a child) then starts last, and runs alone while the
// other worker idles (≈ 50 s of one idle core in the two-at-a-time system group, measured 2026-11-28). The files below
// are known to run long (docs/performance.md, "The test suite"): they start first in their project, longest first;
// every other file keeps vitest's order.
import { BaseSequencer, type TestSpecification } from "vitest/node";

/** Longest first, as measured by the run's "Slowest 10 test files" report; a file missing here only starts later. */
export const LONG_FILES = [
  "test/browser/console-journey.test.ts",
  "test/security/fuzz.test.ts",
  // Every two-commit write family at both fault points: ≈ 160 s of CPU, 115–160 s alone at load 9 (2026-11-28).
  "test/system/provider-reconcile.test.ts",
  "test/system/operations.test.ts",
  "test/docs/code-samples.test.ts",
  "test/system/upgrade.test.ts",
  "test/system/start-and-stop.test.ts",
  "test/http/lists.test.ts",
  "test/http/treasury.test.ts",
];

const rank = (spec: TestSpecification, root: string): number => {
  const index = LONG_FILES.findIndex((file) => spec.moduleId === `${root}/${file}`);
  return index === -1 ? LONG_FILES.length : index;
};

export default class LongFilesFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const root = this.ctx.config.root;
    const position = new Map(sorted.map((spec, index) => [spec, index]));
    // Stable within a project: vitest's group and project order stay as they are; only a project's own files move.
    return [...sorted].sort((a, b) => {
      const group = a.project.config.sequence.groupOrder - b.project.config.sequence.groupOrder;
      if (group !== 0) return group;
      if (a.project.name !== b.project.name) return (position.get(a) ?? 0) - (position.get(b) ?? 0);
      return rank(a, root) - rank(b, root) || (position.get(a) ?? 0) - (position.get(b) ?? 0);
    });
  }
}
