/**
 * Packed product pages: written by a build process, merged into a release, read back by stored
 * path, and written out as files for a release's download.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { isPageStoreFile, mergePagePacks, PagePackWriter, readPacked, readPackedPages, unpackPages } from "./page-pack.ts";

const root = fs.mkdtempSync(path.join(os.tmpdir(), "pawprice-page-pack-"));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

let folders = 0;
const folder = () => {
  const dir = path.join(root, `f${++folders}`);
  fs.mkdirSync(dir);
  return dir;
};

/** How many files this process has open (Linux): a writer or a read must not leave one open. */
const openFiles = () => fs.readdirSync("/proc/self/fd").length;

/** A folder with these pages packed, in this order. */
function packed(pages: Record<string, string>, dir = folder()): string {
  const writer = new PagePackWriter(dir);
  for (const [name, text] of Object.entries(pages)) writer.add(name, Buffer.from(text));
  writer.finish();
  return dir;
}

const read = async (dir: string, name: string) => {
  const page = readPackedPages(dir)!.get(name);
  return page ? (await readPacked(page)).toString() : undefined;
};

describe("a pack", () => {
  it("keeps each page's bytes one after another, found by the page's stored path", async () => {
    const dir = packed({ "product/a.html": "aaa", "product/b.html": "bbbbb", "product/c.html": "" });
    expect(fs.readdirSync(dir).sort()).toEqual([".pages-1.pack", ".pages.json"]);
    expect(fs.readFileSync(path.join(dir, ".pages-1.pack"), "utf8")).toBe("aaabbbbb");
    const pages = readPackedPages(dir)!;
    expect(pages.size).toBe(3);
    expect(pages.paths()).toEqual(["product/a.html", "product/b.html", "product/c.html"]);
    expect(pages.get("product/b.html")).toEqual({ file: path.join(dir, ".pages-1.pack"), offset: 3, length: 5 });
    expect(await read(dir, "product/a.html")).toBe("aaa");
    expect(await read(dir, "product/b.html")).toBe("bbbbb");
    expect(await read(dir, "product/c.html")).toBe("");
    expect(pages.get("product/d.html")).toBeUndefined();
    expect(pages.get("product/a")).toBeUndefined();
    expect(pages.mtimeMs).toBe(fs.statSync(path.join(dir, ".pages-1.pack")).mtimeMs);
  });

  it("closes its pack when done, and a read closes the pack it read from", async () => {
    const before = openFiles();
    const dir = packed({ "product/a.html": "aaa" });
    expect(openFiles()).toBe(before);
    expect(await read(dir, "product/a.html")).toBe("aaa");
    expect(openFiles()).toBe(before);
    fs.truncateSync(path.join(dir, ".pages-1.pack"), 1);
    await expect(read(dir, "product/a.html")).rejects.toThrow(/ends before/);
    expect(openFiles()).toBe(before);
  });

  it("counts what it took, and leaves nothing behind when it took no page", () => {
    const dir = folder();
    const writer = new PagePackWriter(dir);
    expect(writer.size).toBe(0);
    writer.finish();
    expect(fs.readdirSync(dir)).toEqual([]);
    expect(readPackedPages(dir)).toBeNull();
    const two = new PagePackWriter(folder());
    two.add("product/a.html", Buffer.from("a"));
    two.add("product/b.html", Buffer.from("b"));
    expect(two.size).toBe(2);
    two.abandon();
  });

  it("makes its pack with the first page: a folder emptied (or removed) after the writer was made still gets it", async () => {
    const dir = folder();
    const writer = new PagePackWriter(dir);
    fs.rmSync(dir, { recursive: true });
    writer.add("product/a.html", Buffer.from("a"));
    writer.finish();
    expect(fs.readdirSync(dir).sort()).toEqual([".pages-1.pack", ".pages.json"]);
    expect(await read(dir, "product/a.html")).toBe("a");
  });

  it("writes no index when abandoned: a folder without one has no packed pages", () => {
    const dir = folder();
    const before = openFiles();
    const writer = new PagePackWriter(dir);
    writer.add("product/a.html", Buffer.from("a"));
    expect(openFiles()).toBe(before + 1);
    writer.abandon();
    expect(openFiles()).toBe(before);
    writer.abandon();
    expect(fs.existsSync(path.join(dir, ".pages.json"))).toBe(false);
    expect(readPackedPages(dir)).toBeNull();
  });

  it("refuses an index that is not one, or names a file outside its folder, a pack it does not list or no place", () => {
    const dir = folder();
    const index = (value: unknown) => fs.writeFileSync(path.join(dir, ".pages.json"), JSON.stringify(value));
    const pack = [".pages-1.pack"];
    fs.writeFileSync(path.join(dir, ".pages-1.pack"), "abc");
    for (const value of [
      { packs: pack, paths: ["product/a.html"] },
      { packs: pack, places: [0, 0, 1] },
      { paths: ["product/a.html"], places: [0, 0, 1] },
      { packs: pack, paths: ["product/a.html"], places: [0, 0] },
      { packs: pack, paths: ["product/a.html"], places: [0, 0, 1, 0] },
      { packs: pack, paths: "product/a.html", places: [0, 0, 1] },
    ]) {
      index(value);
      expect(() => readPackedPages(dir), JSON.stringify(value)).toThrow(/is not a page index/);
    }
    for (const name of ["../escape.html", "/etc/passwd", "product/../../x.html", "product//x.html", "./x.html", "product/", "", 5, null]) {
      index({ packs: pack, paths: [name], places: [0, 0, 1] });
      expect(() => readPackedPages(dir), String(name)).toThrow(/outside its folder/);
    }
    index({ packs: ["../other.pack"], paths: [], places: [] });
    expect(() => readPackedPages(dir)).toThrow(/outside its folder/);
    for (const place of [[1, 0, 1], [-1, 0, 1], ["0", 0, 1]]) {
      index({ packs: pack, paths: ["product/a.html"], places: place });
      expect(() => readPackedPages(dir), JSON.stringify(place)).toThrow(/names a pack it does not list \(product\/a.html\)/);
    }
    for (const place of [[0, -1, 1], [0, 0, -1], [0, 0.5, 1], [0, 0, 1.5], [0, "0", 1], [0, 0, null]]) {
      index({ packs: pack, paths: ["product/a.html"], places: place });
      expect(() => readPackedPages(dir), JSON.stringify(place)).toThrow(/places product\/a.html nowhere/);
    }
    index({ packs: pack, paths: ["product/a.html"], places: [0, 0, 3] });
    expect(readPackedPages(dir)!.get("product/a.html")).toMatchObject({ offset: 0, length: 3 });
    // Nothing at offset 0 with length 0 is still a place.
    index({ packs: pack, paths: ["product/a.html"], places: [0, 0, 0] });
    expect(readPackedPages(dir)!.get("product/a.html")).toMatchObject({ offset: 0, length: 0 });
  });

  it("fails to read a page the pack ends before", async () => {
    const dir = packed({ "product/a.html": "aaaa" });
    fs.truncateSync(path.join(dir, ".pages-1.pack"), 2);
    await expect(read(dir, "product/a.html")).rejects.toThrow(/ends before the page at 0 \(4 bytes\)/);
  });

  it("reads a page from a large pack at its offset", async () => {
    const big = "x".repeat(200_000);
    const dir = packed({ "product/big.html": big, "product/after.html": "after" });
    expect(await read(dir, "product/after.html")).toBe("after");
    expect(await read(dir, "product/big.html")).toBe(big);
  });
});

describe("merging packs into a release", () => {
  it("moves each part's pack beside the release's own, renumbered, with one index of every page", async () => {
    const release = packed({ "product/a.html": "a from the release" });
    const first = packed({ "product/b.html": "b", "product/c.html": "cc" });
    const second = packed({ "product/d.html": "ddd" });
    mergePagePacks(release, [first, second]);
    expect(fs.readdirSync(release).sort()).toEqual([".pages-1.pack", ".pages-2.pack", ".pages-3.pack", ".pages.json"]);
    expect(fs.readdirSync(first)).toEqual([]);
    expect(fs.readdirSync(second)).toEqual([]);
    const pages = readPackedPages(release)!;
    expect(pages.paths()).toEqual(["product/a.html", "product/b.html", "product/c.html", "product/d.html"]);
    expect(pages.get("product/c.html")).toEqual({ file: path.join(release, ".pages-2.pack"), offset: 1, length: 2 });
    expect(pages.get("product/d.html")).toEqual({ file: path.join(release, ".pages-3.pack"), offset: 0, length: 3 });
    expect(await read(release, "product/a.html")).toBe("a from the release");
    expect(await read(release, "product/c.html")).toBe("cc");
    // The pages' validators change with the newest pack.
    fs.utimesSync(path.join(release, ".pages-1.pack"), new Date("2026-01-01T00:00:00Z"), new Date("2026-01-01T00:00:00Z"));
    fs.utimesSync(path.join(release, ".pages-3.pack"), new Date("2026-03-01T00:00:00Z"), new Date("2026-03-01T00:00:00Z"));
    fs.utimesSync(path.join(release, ".pages-2.pack"), new Date("2026-02-01T00:00:00Z"), new Date("2026-02-01T00:00:00Z"));
    expect(readPackedPages(release)!.mtimeMs).toBe(Date.parse("2026-03-01T00:00:00Z"));
  });

  it("starts the release's index when it has none, takes a page in two parts from the last, and skips parts without pages", async () => {
    const release = folder();
    const empty = folder();
    const first = packed({ "product/a.html": "old a", "product/b.html": "b" });
    const second = packed({ "product/a.html": "new a" });
    mergePagePacks(release, [empty, first, second]);
    expect(await read(release, "product/a.html")).toBe("new a");
    expect(await read(release, "product/b.html")).toBe("b");
    // Each page once in the index, where it was first listed.
    expect(JSON.parse(fs.readFileSync(path.join(release, ".pages.json"), "utf8"))).toEqual({
      packs: [".pages-1.pack", ".pages-2.pack"],
      paths: ["product/a.html", "product/b.html"],
      places: [1, 0, 5, 0, 5, 1],
    });
    const nothing = folder();
    mergePagePacks(nothing, [folder()]);
    expect(fs.readdirSync(nothing)).toEqual([]);
  });
});

describe("unpacking a release's pages", () => {
  it("writes each packed page as its brotli file, except where the folder has a form of it already, and drops the packs", async () => {
    const dir = packed({
      "product/a.html": "packed a",
      "product/b.html": "packed b",
      "product/c.html": "packed c",
      "product/deep/d.html": "packed d",
      "category/e.html": "packed e",
    });
    fs.mkdirSync(path.join(dir, "product"));
    fs.writeFileSync(path.join(dir, "product/b.html.br"), "file b");
    fs.writeFileSync(path.join(dir, "product/c.html.gz"), "file c");
    fs.mkdirSync(path.join(dir, "product/deep"));
    fs.writeFileSync(path.join(dir, "product/deep/d.html"), "plain d");
    await unpackPages(dir);
    expect(fs.readdirSync(dir).sort()).toEqual(["category", "product"]);
    expect(fs.readFileSync(path.join(dir, "category/e.html.br"), "utf8")).toBe("packed e");
    expect(fs.readFileSync(path.join(dir, "product/a.html.br"), "utf8")).toBe("packed a");
    expect(fs.readFileSync(path.join(dir, "product/b.html.br"), "utf8")).toBe("file b");
    expect(fs.existsSync(path.join(dir, "product/c.html.br"))).toBe(false);
    expect(fs.existsSync(path.join(dir, "product/deep/d.html.br"))).toBe(false);
    expect(fs.readFileSync(path.join(dir, "product/deep/d.html"), "utf8")).toBe("plain d");
  });

  it("leaves a folder without packed pages as it is", async () => {
    const dir = folder();
    fs.writeFileSync(path.join(dir, "index.html"), "home");
    await unpackPages(dir);
    expect(fs.readdirSync(dir)).toEqual(["index.html"]);
  });
});

it("names the page store's files, which a published release keeps", () => {
  for (const name of [".pages.json", ".pages-1.pack", ".pages-12.pack"]) expect(isPageStoreFile(name), name).toBe(true);
  for (const name of [".pages.pack", ".pages-.pack", ".pages-1.pack.tmp", "x.pages-1.pack", ".pages.json.bak", ".csp.json"]) expect(isPageStoreFile(name), name).toBe(false);
});
