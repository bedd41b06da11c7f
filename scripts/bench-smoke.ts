/**
 * The smoke runs of the benchmarks (`npm run bench:*`): each script at its smallest size, as its
 * own process the way npm runs it. The figures of runs this small mean nothing and are not
 * checked; they go to a temporary folder (BENCH_RESULTS_DIR), never over the real ones in data/bench.
 */
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll } from "vitest";
import { projectRoot } from "../data/config.ts";

export interface BenchRun {
  code: number | null;
  output: string;
}

/**
 * Registers the test file's temporary results folder (made before its tests, removed after) and
 * returns how to run a benchmark into it and read the figures it wrote.
 */
export function benchSmoke(): {
  runBench: (script: string, args: string[], timeoutMs?: number) => Promise<BenchRun>;
  figures: (name: string) => Record<string, unknown>;
} {
  let resultsDir: string;
  beforeAll(() => {
    resultsDir = fs.mkdtempSync(path.join(os.tmpdir(), "pawprice-bench-smoke-"));
  });
  afterAll(() => fs.rmSync(resultsDir, { recursive: true, force: true }));

  /**
   * Runs scripts/<script> with `args` under plain Node; its exit code and everything it printed.
   * A run still going after `timeoutMs` is ended (the test then fails on its exit code, not on
   * vitest's timeout with the run left behind).
   */
  const runBench = (script: string, args: string[], timeoutMs = 270_000): Promise<BenchRun> =>
    new Promise((resolve) => {
      const child = execFile(
        process.execPath,
        [path.join(projectRoot, "scripts", script), ...args],
        { cwd: projectRoot, env: { ...process.env, BENCH_RESULTS_DIR: resultsDir }, maxBuffer: 64 * 1024 * 1024, timeout: timeoutMs },
        (error, stdout, stderr) => resolve({ code: error ? (typeof error.code === "number" ? error.code : 1) : 0, output: `${stdout}\n${stderr}` }),
      );
      child.stdin?.end();
    });

  /** A figures file the run wrote, parsed. */
  const figures = (name: string) => JSON.parse(fs.readFileSync(path.join(resultsDir, name), "utf8")) as Record<string, unknown>;

  return { runBench, figures };
}
