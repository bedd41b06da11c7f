/**
 * Vitest's order, with the files that take longest started first within their project. Without a
 * results cache (a fresh clone, as in CI) vitest starts the largest files first, and these small
 * but slow files (each builds the site or runs benchmarks in child processes) started last and
 * ran on alone at the end. The list is a rough order taken from a run's timings; a file missing
 * from it only starts later than it could.
 */
import { BaseSequencer, type TestSpecification } from "vitest/node";

/** Project-relative paths of the files that take longest, slowest first. */
export const slowestFiles = [
  "scripts/bench-smoke.test.ts",
  "scripts/bench-rebuild-smoke.test.ts",
  "api/test/site-build-split.test.ts",
  "api/test/restart-rebuild.test.ts",
  "api/test/site-build-idle.test.ts",
  "api/test/server-start.test.ts",
  "api/test/pipeline-cli.test.ts",
  "api/test/demo-site.test.ts",
  "api/test/site-build.test.ts",
];

export default class SlowestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (spec: TestSpecification) => {
      const index = slowestFiles.findIndex((file) => spec.moduleId.endsWith(`/${file}`));
      return index === -1 ? slowestFiles.length : index;
    };
    // Array.prototype.sort is stable: within a project and a rank, vitest's order stays.
    return sorted
      .map((spec, position) => ({ spec, position }))
      .sort((a, b) => (a.spec.project.name === b.spec.project.name ? rank(a.spec) - rank(b.spec) || a.position - b.position : a.position - b.position))
      .map(({ spec }) => spec);
  }
}
