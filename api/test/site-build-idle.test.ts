/**
 * The build worker's idle exit: a worker kept for fast rebuilds serves the jobs that come while
 * it is loaded, exits once it has been idle for the builder's idle time (giving its memory back),
 * and the next fast rebuild starts a fresh worker that still renders the changed product's page.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAstroBuilder } from "../site-build/builder.ts";
import { readStored } from "../site-build/output.ts";
import { tempDb, type TempDb } from "../../data/db/fixtures/temp-db.ts";

let temp: TempDb;
let root: string;

beforeAll(async () => {
  temp = await tempDb(8);
  root = path.join(path.dirname(temp.file), "builds");
  fs.mkdirSync(root);
});

afterAll(() => temp.remove());

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe("the build worker's idle exit", () => {
  it("keeps the worker for jobs within the idle time, ends it after, and starts a fresh one for the next fast rebuild", async () => {
    const idleMs = 4_000;
    const builder = createAstroBuilder({ quiet: true, keepWarm: true, processes: 1, idleMs });
    try {
      const full = await builder.full({ databaseFile: temp.file, outDir: path.join(root, "full") });
      expect(full.ok).toBe(true);
      const first = builder.pid!;
      expect(alive(first)).toBe(true);

      // A job within the idle time is rendered by the loaded worker, and restarts its idle time.
      const [product] = temp.db.$client.prepare("SELECT id, slug FROM products ORDER BY id LIMIT 1").all() as { id: number; slug: string }[];
      const warm = await builder.fast({ databaseFile: temp.file, outDir: path.join(root, "warm"), productIds: [product!.id] });
      expect(warm).toMatchObject({ ok: true, productPages: 1 });
      expect(builder.pid).toBe(first);
      const renderedAt = performance.now();

      // Idle from then on: the worker exits, not before its idle time has passed.
      await expect.poll(() => alive(first), { timeout: 60_000, interval: 100 }).toBe(false);
      expect(performance.now() - renderedAt).toBeGreaterThanOrEqual(idleMs - 50);
      expect(builder.pid).toBeUndefined();

      // The next fast rebuild starts a fresh worker (a cold build of the fast pass's pages).
      const cold = await builder.fast({ databaseFile: temp.file, outDir: path.join(root, "cold"), productIds: [product!.id] });
      expect(cold).toMatchObject({ ok: true, productPages: 1 });
      const second = builder.pid!;
      expect(second).not.toBe(first);
      expect(alive(second)).toBe(true);
      const page = await readStored(path.join(root, "cold"), `product/${product!.slug}.html`);
      expect(page?.toString("utf8")).toContain("</html>");
    } finally {
      await builder.stop();
    }
  }, 240_000);
});
