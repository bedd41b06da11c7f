/**
 * Where the benchmarks write their figures: data/bench, or the folder BENCH_RESULTS_DIR names
 * (the test suite's smoke runs at tiny sizes, whose figures must not replace real ones).
 */
import fs from "node:fs";
import path from "node:path";
import { projectRoot } from "../data/config.ts";

/** The path of a benchmark's figures file `name` (its folder made). */
export function benchResultsFile(name: string): string {
  const dir = process.env.BENCH_RESULTS_DIR ? path.resolve(process.env.BENCH_RESULTS_DIR) : path.join(projectRoot, "data/bench");
  fs.mkdirSync(dir, { recursive: true });
  return path.join(dir, name);
}
