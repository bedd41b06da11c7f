/**
 * `npm run import` and `npm run refresh` as commands (real processes over a real SQLite file):
 * what they print, what they store, and their exit codes (0 done, 1 nothing could be done,
 * 2 bad arguments).
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { projectRoot } from "../../data/config.ts";
import { latestRefreshRun } from "../../data/db/price-review.ts";
import { tempDb, type TempDb } from "../../data/db/fixtures/temp-db.ts";

let temp: TempDb;
beforeAll(async () => {
  temp = await tempDb(3);
});
afterAll(() => temp.remove());

const run = (script: string, args: string[], env: Record<string, string> = {}) =>
  spawnSync(process.execPath, [path.join(projectRoot, "scripts", script), ...args], {
    env: { ...process.env, DATABASE_PATH: temp.file, AWIN_FEED_URL: "", AWIN_FEED_FILE: "", ...env },
    encoding: "utf8",
    timeout: 60_000,
  });
const products = () => (temp.db.$client.prepare("SELECT count(*) AS n FROM products").get() as { n: number }).n;

describe("npm run import", () => {
  it("imports the sample feed, then changes nothing when run again", () => {
    const before = products();
    const first = run("import.ts", ["--source", "sample"]);
    expect(first.status, first.stderr).toBe(0);
    const created = Number(/Imported (\d+) products from sample/.exec(first.stdout)?.[1]);
    expect(created).toBeGreaterThanOrEqual(20);
    expect(products()).toBe(before + created);
    const second = run("import.ts", ["--source", "sample"]);
    expect(second.status).toBe(0);
    expect(second.stdout).toMatch(/Imported 0 products from sample: 37 rows, 37 already existed/);
    expect(products()).toBe(before + created);
  });

  it("reads a feed file, and refuses one that is not a feed (exit 1, nothing imported)", () => {
    const file = path.join(path.dirname(temp.file), "page.csv");
    fs.writeFileSync(file, "<!doctype html><html><body>404 Not Found</body></html>");
    const before = products();
    const result = run("import.ts", ["--file", file, "--create-products"]);
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/import: failed: .*not a product feed/i);
    expect(products()).toBe(before);
  });

  it("refuses bad arguments with the usage (exit 2)", () => {
    const unknown = run("import.ts", ["--source", "nope"]);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain('unknown source "nope"');
    expect(unknown.stderr).toContain("Usage: npm run import");
    expect(run("import.ts", ["--create-products"]).status).toBe(2);
    expect(run("import.ts", ["--bogus"]).status).toBe(2);
  });

  it("the Amazon source without credentials says which are missing (exit 1)", () => {
    const result = run("import.ts", ["--source", "amazon"], { AMAZON_CREATORS_CREDENTIAL_ID: "", AMAZON_CREATORS_CREDENTIAL_SECRET: "", AMAZON_PARTNER_TAG: "" });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain("Amazon Creators API credentials are not set (AMAZON_CREATORS_CREDENTIAL_ID, AMAZON_CREATORS_CREDENTIAL_SECRET, AMAZON_PARTNER_TAG)");
  });
});

describe("npm run refresh", () => {
  it("exits 1 when every read failed (here: every offer's page is refused), stores the run, prints plain progress lines", () => {
    // The imported offers point at amazon.co.uk, which this machine cannot reach; the seeded ones
    // too. To be sure no page is read, point them all at an address the guard refuses.
    temp.db.$client.prepare("UPDATE product_prices SET url = 'http://10.0.0.1/p/' || id").run();
    const result = run("refresh.ts", [], { REFRESH_HOST_DELAY_MS: "0" });
    expect(result.status).toBe(1);
    expect(result.stdout).toMatch(/Price refresh failed: 0 checked, 0 changed, 0 held for review, \d+ failed/);
    // Not a terminal: plain lines, no carriage-return bar.
    expect(result.stdout).toMatch(/\d+\/\d+ pages read/);
    expect(result.stdout).not.toContain("\r");
    expect(result.stdout).toContain("is not a public address");
    expect(latestRefreshRun(temp.db)).toMatchObject({ result: "failed", checked: 0 });
  });

  it("exits 0 with nothing to read", () => {
    temp.db.$client.prepare("DELETE FROM product_prices").run();
    const result = run("refresh.ts", []);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/Price refresh succeeded: 0 checked/);
  });

  it("refuses arguments (exit 2)", () => {
    expect(run("refresh.ts", ["--now"]).status).toBe(2);
  });
});
