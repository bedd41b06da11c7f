/**
 * The served release as a tarball, over release folders laid out as the release store publishes
 * them: a full release as it is, a fast one merged with its base (its own pages win), packed
 * pages written out as files, and no folder left behind once the archive has been read.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import * as tar from "tar";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { PagePackWriter } from "./page-pack.ts";
import { releaseArchive } from "./release-archive.ts";
import { createReleaseStore, readScriptHashes, writeScriptHashes, type ReleaseStore } from "./releases.ts";
import { treeHash, writeFiles } from "../test/files.ts";

let dir: string;
let store: ReleaseStore;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "pawprice-archive-"));
  store = createReleaseStore(path.join(dir, "releases"));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function publish(files: Record<string, string>, meta: { kind: "full" | "fast"; base: string | null }, scriptHashes: string[]): string {
  const staged = store.stage();
  writeFiles(staged.dir, files);
  writeScriptHashes(staged.dir, scriptHashes);
  store.publish(staged, meta);
  fs.rmSync(staged.scratch, { recursive: true });
  return staged.name;
}

/** Writes the archive of the served release to a file and unpacks it into a fresh folder. */
async function unpack(label: string): Promise<string> {
  const file = path.join(dir, `${label}.tar.gz`);
  await pipeline(await releaseArchive(store.currentRoot()!), fs.createWriteStream(file));
  expect(fs.readFileSync(file).subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b]));
  const out = path.join(dir, label);
  fs.mkdirSync(out);
  await tar.x({ file, cwd: out });
  return out;
}

const read = (root: string, file: string) => fs.readFileSync(path.join(root, file), "utf8");
const leftovers = () => fs.readdirSync(store.dir).filter((entry) => entry.startsWith(".building-"));

describe("releaseArchive", () => {
  it("archives a full release as it is, its files at the archive's root", async () => {
    const base = publish({ "index.html": "<h1>home</h1>", "product/bone.html": "<h1>bone</h1>", "_astro/app.js": "1" }, { kind: "full", base: null }, ["sha256-a"]);
    const out = await unpack("full");
    expect(Object.keys(treeHash(out)).sort()).toEqual([".csp.json", ".release.json", "_astro/app.js", "index.html", "product/bone.html"]);
    expect(treeHash(out)).toEqual(treeHash(path.join(store.dir, base)));
  });

  it("merges a fast release with its base: its own pages win, the rest comes from the base, and the merge folder goes", async () => {
    const base = store.currentName()!;
    publish({ "index.html": "<h1>home, fast</h1>", "product/bone.html": "<h1>bone, fast</h1>" }, { kind: "fast", base }, ["sha256-b"]);
    const out = await unpack("fast");
    expect(Object.keys(treeHash(out)).sort()).toEqual([".csp.json", "_astro/app.js", "index.html", "product/bone.html"]);
    expect(read(out, "index.html")).toBe("<h1>home, fast</h1>");
    expect(read(out, "product/bone.html")).toBe("<h1>bone, fast</h1>");
    expect(read(out, "_astro/app.js")).toBe("1");
    expect(readScriptHashes(out)).toEqual(["sha256-a", "sha256-b"]);
    await vi.waitFor(() => expect(leftovers()).toEqual([]));
    // The releases themselves are untouched.
    expect(read(path.join(store.dir, base), "index.html")).toBe("<h1>home</h1>");
  });

  it("writes a full release's packed product pages out as files, a fast release's own pages winning, and leaves the release as it was", async () => {
    const staged = store.stage();
    writeFiles(staged.dir, { "index.html": "<h1>home, packed</h1>" });
    const pack = new PagePackWriter(staged.dir);
    pack.add("product/chew.html", Buffer.from("chew brotli"));
    pack.add("product/ball.html", Buffer.from("ball brotli"));
    pack.finish();
    store.publish(staged, { kind: "full", base: null });
    fs.rmSync(staged.scratch, { recursive: true });
    const full = path.join(store.dir, staged.name);
    const before = treeHash(full);
    const out = await unpack("packed");
    expect(Object.keys(treeHash(out)).sort()).toEqual([".csp.json", "index.html", "product/ball.html.br", "product/chew.html.br"]);
    expect(read(out, "product/chew.html.br")).toBe("chew brotli");
    expect(treeHash(full)).toEqual(before);
    await vi.waitFor(() => expect(leftovers()).toEqual([]));

    publish({ "product/chew.html.br": "chew, fast" }, { kind: "fast", base: staged.name }, []);
    const merged = await unpack("packed-fast");
    expect(Object.keys(treeHash(merged)).sort()).toEqual([".csp.json", "index.html", "product/ball.html.br", "product/chew.html.br"]);
    expect(read(merged, "product/chew.html.br")).toBe("chew, fast");
    expect(read(merged, "product/ball.html.br")).toBe("ball brotli");
    expect(treeHash(full)).toEqual(before);
  });

  it("leaves no merge folder behind when a layer cannot be read, and fails", async () => {
    const base = store.currentName()!;
    const fast = publish({ "index.html": "<h1>home, fast again</h1>" }, { kind: "fast", base }, []);
    // The base gone from under the fast release (as a failing disk could leave it).
    fs.renameSync(path.join(store.dir, base), path.join(dir, "moved-away"));
    try {
      await expect(releaseArchive(path.join(store.dir, fast))).rejects.toThrow(/ENOENT/);
      expect(leftovers()).toEqual([]);
    } finally {
      fs.renameSync(path.join(dir, "moved-away"), path.join(store.dir, base));
    }
  });

  it("writes portable entries: no owner names or ids of this machine", async () => {
    const file = path.join(dir, "portable.tar.gz");
    await pipeline(await releaseArchive(store.currentRoot()!), fs.createWriteStream(file));
    const owners: string[] = [];
    await tar.t({ file, onReadEntry: (entry) => owners.push(`${entry.uname ?? ""}:${entry.gname ?? ""}:${entry.uid ?? ""}`) });
    expect(owners.length).toBeGreaterThan(2);
    expect(new Set(owners)).toEqual(new Set(["::"]));
  });

  it("removes the merge folder when the archive is abandoned half-read", async () => {
    await vi.waitFor(() => expect(leftovers()).toEqual([]));
    const archive = await releaseArchive(store.currentRoot()!);
    expect(leftovers()).toHaveLength(1);
    archive.destroy();
    await vi.waitFor(() => expect(leftovers()).toEqual([]));
  });
});
