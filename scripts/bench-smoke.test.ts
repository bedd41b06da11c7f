/**
 * Every benchmark (`npm run bench:*`) still runs: each script at its smallest size must exit 0,
 * print its figures and write its figures file. bench:rebuild, the slowest, has its own file
 * (bench-rebuild-smoke.test.ts) so that the two run side by side.
 */
import { describe, expect, it } from "vitest";
import { benchSmoke } from "./bench-smoke.ts";

const { runBench, figures } = benchSmoke();
const chromium = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

describe("every benchmark runs at its smallest size", () => {
  it("bench:api", async () => {
    const run = await runBench("bench-api.ts", ["--products", "100", "--seconds", "0.5", "--connections", "2", "--rate", "20", "--warmup", "0", "--rounds", "1"]);
    expect(run.code, run.output).toBe(0);
    expect(run.output).toMatch(/^100 products, 2 connections, 0\.5 s per run/m);
    expect(run.output).toMatch(/^meets target: (?:true|false)$/m);
    expect(figures("api.json")).toMatchObject({ products: 100, results: expect.any(Array), sideBySide: expect.any(Array), searchMix: expect.any(Object) });
  }, 300_000);

  it("bench:basket", async () => {
    const run = await runBench("bench-basket.ts", ["--products", "30", "--baskets", "5", "--warmup", "1"]);
    expect(run.code, run.output).toBe(0);
    expect(run.output).toMatch(/^POST \/api\/basket\/quote, one at a time over loopback: p50 [\d.]+ ms, p99 [\d.]+ ms, slowest [\d.]+ ms$/m);
    expect(run.output).toMatch(/^meets target \(p99 < 50 ms\): (?:true|false)$/m);
    expect(figures("basket.json")).toMatchObject({ products: 30, basketSize: 8, retailers: 8, http: { quotes: 5 }, inProcess: { quotes: 5 } });
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

  it("bench:refresh", async () => {
    const run = await runBench("bench-refresh.ts", ["--products", "30", "--concurrency", "2"]);
    expect(run.code, run.output).toBe(0);
    expect(run.output).toMatch(/^\d+ checked \(\d+ changed, .*\) in [\d.]+ s: \d+ offers\/s$/m);
    expect(figures("refresh.json")).toMatchObject({ result: { checked: expect.any(Number), offersPerSecond: expect.any(Number) } });
  }, 300_000);
});
