/**
 * bench:rebuild still runs at its smallest size: it exits 0, prints each of its figures and writes
 * its figures file (the other benchmarks' smoke runs are in bench-smoke.test.ts).
 */
import { describe, expect, it } from "vitest";
import { benchSmoke } from "./bench-smoke.ts";

const { runBench, figures } = benchSmoke();

describe("bench:rebuild runs at its smallest size", () => {
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

});
