import { appendFileSync, mkdirSync } from "node:fs";
import path from "node:path";
import type { Reporter, TestModule } from "vitest/node";

/**
 * A vitest reporter that appends one JSON line per test file to `BRIER_TEST_FILE_TIMINGS` as soon
 * as the file ends (vitest's JSON reporter writes only when the whole run ends, so a profile cut
 * short kept nothing; docs/ci.md). Each line: the project, the file, its state, its tests, their
 * failures, its times in milliseconds as vitest measured them (import: the test file and everything
 * it loads, with its describe blocks; setup: test/setup.ts; prepare: vitest's own harness; tests:
 * tests and hooks) and when it ended. `.ci/run` adds it to both vitest runs and prints the slowest.
 */
export default class FileTimings implements Reporter {
  private readonly file: string;

  constructor() {
    const file = process.env.BRIER_TEST_FILE_TIMINGS;
    if (file === undefined || file === "") throw new Error("test/helpers/file-timings.ts writes to BRIER_TEST_FILE_TIMINGS: set it to a file path");
    this.file = path.resolve(file);
    mkdirSync(path.dirname(this.file), { recursive: true });
  }

  onTestModuleEnd(testModule: TestModule): void {
    const diagnostic = testModule.diagnostic();
    const tests = [...testModule.children.allTests()];
    const line = {
      project: testModule.project.name,
      file: path.relative(process.cwd(), testModule.moduleId),
      state: testModule.state(),
      tests: tests.length,
      failed: tests.filter((test) => test.result().state === "failed").length,
      ms: {
        import: Math.round(diagnostic.collectDuration),
        setup: Math.round(diagnostic.setupDuration),
        prepare: Math.round(diagnostic.prepareDuration),
        tests: Math.round(diagnostic.duration),
      },
      endedAt: new Date().toISOString(),
    };
    appendFileSync(this.file, `${JSON.stringify(line)}\n`);
  }
}
