// Prints the ten slowest test files at the end of a run (`npm test`, `npm run test:quick`): where the suite's time goes,
// so a new slow file is noticed the day it lands (docs/performance.md "The test suite"). A file's time is its import
// (collect) plus its tests and hooks, per project: test/http files appear once per database.
import type { Reporter, TestModule } from "vitest/node";

const SHOWN = 10;

export default class SlowestFilesReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const all = testModules.map((module) => {
      const { collectDuration, duration } = module.diagnostic();
      return { name: module.relativeModuleId, project: module.project.name, ms: collectDuration + duration };
    });
    const files = [...all].sort((a, b) => b.ms - a.ms).slice(0, SHOWN);
    if (files.length === 0) return;
    const lines = files.map(({ name, project, ms }) => `  ${(ms / 1000).toFixed(1).padStart(7)} s  ${name} [${project}]`);
    process.stdout.write(`\nSlowest ${files.length} test files (import + tests):\n${lines.join("\n")}\n`);
    // Per project, the sum of its files' times: the parallel projects share two workers, the serial ones run alone.
    const projects = new Map<string, { files: number; ms: number }>();
    for (const { project, ms } of all) {
      const sum = projects.get(project) ?? { files: 0, ms: 0 };
      projects.set(project, { files: sum.files + 1, ms: sum.ms + ms });
    }
    const totals = [...projects].map(([name, { files, ms }]) => `  ${(ms / 1000).toFixed(0).padStart(7)} s  ${name} (${files} files)`);
    process.stdout.write(`Time per project (sum of its files):\n${totals.join("\n")}\n`);
  }
}
