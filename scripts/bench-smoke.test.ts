/**
 * Every benchmark (`npm run bench:*`) still runs: each script at its smallest size, as its own
 * process the way npm runs it, must exit 0, print its figures and write its figures file. The
 * figures of runs this small mean nothing and are not checked; they go to a temporary folder
 * (BENCH_RESULTS_DIR), never over the real ones in data/bench.
 */
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { projectRoot } from "../data/config.ts";

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
function runBench(script: string, args: string[], timeoutMs = 270_000): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [path.join(projectRoot, "scripts", script), ...args],
      { cwd: projectRoot, env: { ...process.env, BENCH_RESULTS_DIR: resultsDir }, maxBuffer: 64 * 1024 * 1024, timeout: timeoutMs },
      (error, stdout, stderr) => resolve({ code: error ? (typeof error.code === "number" ? error.code : 1) : 0, output: `${stdout}\n${stderr}` }),
    );
    child.stdin?.end();
  });
}

/** A figures file the run wrote, parsed. */
const figures = (name: string) => JSON.parse(fs.readFileSync(path.join(resultsDir, name), "utf8")) as Record<string, unknown>;

const chromium = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

describe("every benchmark runs at its smallest size", () => {
  it("bench:api", async () => {
    const run = await runBench("bench-api.ts", ["--products", "100", "--seconds", "0.5", "--connections", "2", "--rate", "20", "--warmup", "0", "--rounds", "1"]);
    expect(run.code, run.output).toBe(0);
    expect(run.output).toMatch(/^100 products, 2 connections, 0\.5 s per run/m);
    expect(run.output).toMatch(/^meets target: (?:true|false)$/m);
    expect(figures("api.json")).toMatchObject({ products: 100, results: expect.any(Array), sideBySide: expect.any(Array), searchMix: expect.any(Object) });
  }, 300_000);

  it("bench:build", async () => {
    const run = await runBench("bench-build.ts", ["--sizes", "30", "--requests", "20"]);
    expect(run.code, run.output).toBe(0);
    expect(run.output).toMatch(/^30 products: \d+ pages in [\d.]+ s in \d process\(es\) .*peak RSS \d+ MB/m);
    expect(figures("build.json")).toMatchObject({ results: [{ products: 30 }] });
  }, 300_000);

  it("bench:export", async () => {
    const run = await runBench("bench-export.ts", ["--products", "30"]);
    expect(run.code, run.output).toBe(0);
    expect(run.output).toMatch(/^Product export \(\.xlsx/m);
    expect(figures("export.json")).toMatchObject({ result: { products: 30, rows: expect.any(Number), seconds: expect.any(Number) } });
  }, 300_000);

  it("bench:import", async () => {
    const run = await runBench("bench-import.ts", ["--mb", "0.2"]);
    expect(run.code, run.output).toBe(0);
    expect(run.output).toMatch(/^Awin CSV: [\d,]+ items in [\d.]+ s: [\d,]+ items\/s; peak RSS/m);
    expect(run.output).toMatch(/^Google Merchant XML: [\d,]+ items in [\d.]+ s: [\d,]+ items\/s; peak RSS/m);
    expect(figures("import.json")).toMatchObject({ result: { format: "csv", rows: expect.any(Number) } });
    expect(figures("import-google-xml.json")).toMatchObject({ result: { format: "google-xml", rows: expect.any(Number) } });
  }, 300_000);

  it("bench:pages", async () => {
    const run = await runBench("bench-pages.ts", ["--products", "30", "--runs", "1", "--only", "privacy", "--chrome", chromium, "--cpu-seconds", "1", "--cpu-rounds", "1", "--connections", "2"]);
    expect(run.code, run.output).toBe(0);
    expect(run.output).toMatch(/^\| privacy \| \d+ \| [\d.]+ s \| [\d.]+ s \|/m);
    expect(figures("pages.json")).toMatchObject({ products: 30, runs: 1, pages: [{ name: "privacy" }] });
    expect(figures("pages-cpu.json")).toMatchObject({ products: 30, connections: 2, pages: [expect.objectContaining({ page: expect.any(String) })] });
  }, 300_000);

  it("bench:rebuild", async () => {
    // Long enough for the warm edits to find the worker loaded (changes gather for 3 s first).
    // Five builds, the slowest smoke run: on a busy machine it took up to six minutes.
    const run = await runBench("bench-rebuild.ts", ["--products", "30", "--edits", "1", "--idle-ms", "8000"], 560_000);
    expect(run.code, run.output).toBe(0);
    expect(run.output).toMatch(/^Product \d+: £[\d.]+ live after [\d.]+ s \(fast build/m);
    expect(run.output).toMatch(/^Build worker exited when idle: at rest the server holds \d+ MB .*an edit then live after [\d.]+ s/m);
    expect(run.output).toMatch(/^Category renamed: live after [\d.]+ s \(full build\)/m);
    expect(run.output).toMatch(/^Once the worker is ready: live after [\d.]+ s/m);
    expect(figures("rebuild.json")).toMatchObject({ products: 30, afterIdleExit: { edit: { seconds: expect.any(Number) } } });
  }, 600_000);

  it("bench:refresh", async () => {
    const run = await runBench("bench-refresh.ts", ["--products", "30", "--concurrency", "2"]);
    expect(run.code, run.output).toBe(0);
    expect(run.output).toMatch(/^\d+ checked \(\d+ changed, .*\) in [\d.]+ s: \d+ offers\/s$/m);
    expect(figures("refresh.json")).toMatchObject({ result: { checked: expect.any(Number), offersPerSecond: expect.any(Number) } });
  }, 300_000);
});
