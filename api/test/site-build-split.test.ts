/**
 * A full build split over two rendering processes (what a large catalogue gets on a machine with
 * two cores), after a process that only bundles the site: the same site as one process builds
 * from the same data (the assets precompressed alike), every product page in it once, the other
 * pages rendered by the first helper, the CSP hashes of every process's pages listed; and one
 * process failing fails the build, ends the others and leaves no folder behind.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { treeHash } from "./files.ts";
import { createAstroBuilder, otherPagesCost, shareOut } from "../site-build/builder.ts";
import { readStored } from "../site-build/output.ts";
import { readPackedPages } from "../site-build/page-pack.ts";
import { readScriptHashes } from "../site-build/releases.ts";
import { tempDb, type TempDb } from "../../data/db/fixtures/temp-db.ts";

let temp: TempDb;
let root: string;

beforeAll(async () => {
  temp = await tempDb(30);
  root = path.join(path.dirname(temp.file), "builds");
  fs.mkdirSync(root);
});

afterAll(() => temp.remove());

/** Every stored file by its own name (index.html for index.html.gz), dot files left out. */
/** The files a release folder serves: its own files (a compressed form counts as its file) and its packed pages. */
const storedFiles = (dir: string) =>
  [
    ...new Set([
      ...Object.keys(treeHash(dir))
        .filter((file) => !file.startsWith("."))
        .map((file) => file.replace(/\.(?:gz|br)$/, "")),
      ...(readPackedPages(dir)?.paths() ?? []),
    ]),
  ].sort();

/** The price-history chart is drawn up to the moment of rendering; everything else must match. */
const withoutChart = (html: string) => html.replace(/<path d="[^"]*"/g, '<path d="…"');

const productSlugs = () => (temp.db.$client.prepare("SELECT slug FROM products ORDER BY id").pluck().all() as string[]).sort();

describe("shareOut", () => {
  it("deals ids out in turn, so shares differ in size by one at most and keep id order", () => {
    expect(shareOut([1, 2, 3, 4, 5], 2)).toEqual([
      [1, 3, 5],
      [2, 4],
    ]);
    expect(shareOut([7, 8, 9], 3)).toEqual([[7], [8], [9]]);
    expect(shareOut([], 2)).toEqual([[], []]);
  });

  it("makes the first share lighter by the count asked (its process has the other pages to render), still dealing in turn", () => {
    expect(shareOut([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 2, 2)).toEqual([
      [1, 3, 5, 7],
      [2, 4, 6, 8, 9, 10],
    ]);
    // Three shares: the first 2 lighter than the others, which split the rest evenly.
    expect(shareOut([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 3, 2)).toEqual([
      [1, 4],
      [2, 5, 7, 9],
      [3, 6, 8, 10],
    ]);
    // Exactly on the bound: 4 ids, 2 lighter, the first share gets 1 and the other 3.
    expect(shareOut([1, 2, 3, 4], 2, 2)).toEqual([[1], [2, 3, 4]]);
    // Lighter than there are ids: the first share gets none, never fewer.
    expect(shareOut([1, 2, 3], 2, 10)).toEqual([[], [1, 2, 3]]);
    const sizes = shareOut(Array.from({ length: 50_000 }, (_, index) => index + 1), 2, 800).map((share) => share.length);
    expect(sizes).toEqual([24_600, 25_400]);
  });

  it("prices the other pages (home, categories, sitemaps) at 500 product pages plus one per 75 products, as measured", () => {
    expect(otherPagesCost(0)).toBe(500);
    expect(otherPagesCost(10_000)).toBe(633);
    expect(otherPagesCost(50_000)).toBe(1_167);
  });
});

describe("a full build in two processes", () => {
  it("builds the very site one process builds, each product page once, with both processes' script hashes", async () => {
    const single = path.join(root, "single");
    const split = path.join(root, "split");
    const one = createAstroBuilder({ quiet: true, keepWarm: false, processes: 1 });
    // The first helper renders the other pages and 4 products fewer than the second: 13 and 17.
    const two = createAstroBuilder({ quiet: true, keepWarm: false, processes: 2, splitFromProducts: 1, otherPagesCost: () => 4 });
    const [alone, shared] = await Promise.all([
      one.full({ databaseFile: temp.file, outDir: single }),
      two.full({ databaseFile: temp.file, outDir: split }),
    ]);
    expect(alone).toMatchObject({ ok: true, productPages: 30 });
    expect(shared).toMatchObject({ ok: true, productPages: 30, pages: alone.pages });
    // Every process logged its part: the first bundled and rendered nothing, the first helper
    // rendered every page but the product pages and its 13 product pages, the second 17 product pages.
    expect(shared.log).toMatch(/^bundled in [\d.]+ s, the render kit written$/m);
    expect(shared.log.match(/files built in/g)).toHaveLength(2);
    expect(shared.log).toMatch(new RegExp(`^${alone.pages - 30 + 13} files built in`, "m"));
    expect(shared.log).toMatch(/^17 files built in/m);

    // Each process packed its own share of the product pages; the main folder holds both packs and one index of them all.
    expect(fs.existsSync(path.join(split, "product"))).toBe(false);
    expect(fs.readdirSync(split).filter((name) => name.startsWith(".pages")).sort()).toEqual([".pages-1.pack", ".pages-2.pack", ".pages.json"]);
    expect(readPackedPages(split)!.paths().sort()).toEqual(productSlugs().map((slug) => `product/${slug}.html`).sort());
    expect(fs.readdirSync(single).filter((name) => name.startsWith(".pages")).sort()).toEqual([".pages-1.pack", ".pages.json"]);
    const files = storedFiles(split);
    expect(files).toEqual(storedFiles(single));
    // Compressed variants too: the assets the bundling process left are precompressed as one process's build does.
    const ownFiles = (dir: string) => Object.keys(treeHash(dir)).filter((file) => !file.startsWith(".")).sort();
    expect(ownFiles(split)).toEqual(ownFiles(single));
    expect(ownFiles(split).some((file) => file.startsWith("_astro/") && file.endsWith(".js.br"))).toBe(true);
    for (const file of files) {
      const read = async (dir: string) => withoutChart((await readStored(dir, file))!.toString("utf8"));
      expect(await read(split), file).toBe(await read(single));
    }
    expect(readScriptHashes(split)).toEqual(readScriptHashes(single));
    expect(readScriptHashes(split).length).toBeGreaterThan(0);
    // The helper's folder is gone once its pages moved in (node_modules: the builds' link to the project's).
    expect(fs.readdirSync(root).sort()).toEqual(["node_modules", "single", "split"]);
  }, 240_000);

  it("keeps its first helper warm: a fast rebuild renders with the render kit the pages a full build renders", async () => {
    const outDir = path.join(root, "warm-full");
    const fastDir = path.join(root, "warm-fast");
    const builder = createAstroBuilder({ quiet: true, keepWarm: true, processes: 2, splitFromProducts: 1 });
    try {
      expect(await builder.full({ databaseFile: temp.file, outDir })).toMatchObject({ ok: true, productPages: 30 });
      // Only the warm helper is left, and the kit it renders with.
      expect(builder.pids).toHaveLength(1);
      expect(fs.existsSync(path.join(`${outDir}-0`, "kit.json"))).toBe(true);
      const [id, slug] = temp.db.$client.prepare("SELECT id, slug FROM products ORDER BY id DESC LIMIT 1").raw().get() as [number, string];
      const fast = await builder.fast({ databaseFile: temp.file, outDir: fastDir, productIds: [id] });
      expect(fast).toMatchObject({ ok: true, productPages: 1 });
      // A fast rebuild writes its few product pages a file each, never a pack.
      expect(fs.readdirSync(path.join(fastDir, "product"))).toEqual([`${slug}.html.br`]);
      expect(fs.existsSync(path.join(fastDir, ".pages.json"))).toBe(false);
      // Rendered by the warm process, not by a cold build (which logs its build).
      expect(fast.log).not.toMatch(/files built in/);
      const files = storedFiles(fastDir);
      expect(files).toEqual(expect.arrayContaining(["index.html", "category/dog-food/index.html", `product/${slug}.html`, "sitemap.xml"]));
      for (const file of files) {
        const read = async (dir: string) => withoutChart((await readStored(dir, file))!.toString("utf8"));
        expect(await read(fastDir), file).toBe(await read(outDir));
      }
    } finally {
      await builder.stop();
    }
    // The kit goes with the process that used it.
    await vi.waitFor(() => expect(fs.existsSync(`${outDir}-0`)).toBe(false), { timeout: 10_000, interval: 20 });
  }, 240_000);

  it("fails as a whole when one process dies, ending the others and leaving no folder of its own", async () => {
    const outDir = path.join(root, "killed");
    const builder = createAstroBuilder({ quiet: true, keepWarm: true, processes: 2, splitFromProducts: 1 });
    const result = builder.full({ databaseFile: temp.file, outDir });
    // The main process and the two helpers.
    await vi.waitFor(() => expect(builder.pids).toHaveLength(3), { timeout: 30_000, interval: 20 });
    const [main, helper, other] = builder.pids;
    // Half-way: the main process's build has left the helpers their render kit.
    await vi.waitFor(() => expect(fs.existsSync(path.join(`${outDir}-0`, "kit.json"))).toBe(true), { timeout: 120_000, interval: 50 });
    process.kill(helper!, "SIGKILL");
    const outcome = await result;
    expect(outcome.ok).toBe(false);
    expect(outcome.log).toMatch(/SIGKILL/);
    expect(builder.pids).toEqual([]);
    expect(() => process.kill(main!, 0)).toThrow();
    expect(() => process.kill(other!, 0)).toThrow();
    for (const suffix of ["-0", "-1", "-2"]) expect(fs.existsSync(`${outDir}${suffix}`)).toBe(false);
    await builder.stop();
  }, 240_000);

  it("answers a failed build, not an exception, when the catalogue cannot be read", async () => {
    const builder = createAstroBuilder({ quiet: true, keepWarm: false, processes: 2, splitFromProducts: 1 });
    const outcome = await builder.full({ databaseFile: path.join(root, "no-such.db"), outDir: path.join(root, "unreadable") });
    expect(outcome.ok).toBe(false);
    expect(outcome.log).toMatch(/no-such\.db|unable to open|SQLITE_CANTOPEN|directory does not exist/i);
    expect(builder.pids).toEqual([]);
  }, 120_000);
});
