import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { PagePackWriter, readPacked, readPackedPages } from "./page-pack.ts";
import {
  createReleaseStore,
  createSnapshotFile,
  readReleaseMeta,
  readScriptHashes,
  releaseLayers,
  releaseMetaFile,
  scriptHashesFile,
  writeScriptHashes,
  type ReleaseStore,
  type StagedRelease,
} from "./releases.ts";
import { withPermissiveUmask, writeFiles } from "../test/files.ts";

let dir: string;
let store: ReleaseStore;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "pawprice-releases-"));
  store = createReleaseStore(path.join(dir, "releases"));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Stages a release with these files and publishes it; returns its name. */
function release(
  files: Record<string, string>,
  meta: { kind: "full" | "fast"; base: string | null } = { kind: "full", base: null },
): string {
  const staged = store.stage();
  writeFiles(staged.dir, files);
  store.publish(staged, meta);
  fs.rmSync(staged.scratch, { recursive: true });
  return staged.name;
}

const names = () => fs.readdirSync(store.dir).sort();

describe("publishing a release", () => {
  it("serves nothing before the first release, without creating the folder", () => {
    expect(store.currentName()).toBeNull();
    expect(store.currentRoot()).toBeNull();
    expect(fs.existsSync(store.dir)).toBe(false);
  });

  it("keeps a staged release out of service until it is published, then points current at it", async () => {
    const first = release({ "index.html": "one" });
    const staged = store.stage();
    writeFiles(staged.dir, { "index.html": "two" });
    expect(store.currentName()).toBe(first);
    expect(fs.readFileSync(path.join(store.currentRoot()!, "index.html"), "utf8")).toBe("one");

    store.publish(staged, { kind: "full", base: null });
    expect(store.currentName()).toBe(staged.name);
    expect(store.currentRoot()).toBe(path.join(store.dir, staged.name));
    expect(fs.readFileSync(path.join(store.currentRoot()!, "index.html"), "utf8")).toBe("two");
    expect(fs.readlinkSync(path.join(store.dir, "current"))).toBe(staged.name);
    // The staging folder is the release now; the snapshot folder goes with discard; the earlier
    // release is still there (cleanup deletes it later).
    expect(fs.existsSync(staged.dir)).toBe(false);
    expect(fs.existsSync(staged.scratch)).toBe(true);
    await store.discard(staged);
    expect(fs.existsSync(staged.scratch)).toBe(false);
    expect(names()).toEqual([first, staged.name, "current"].sort());
  });

  it("removes build intermediates and other dot entries, and records what the release is", () => {
    const name = release({ "index.html": "home", ".prerender/entry.mjs": "server code", ".hidden": "x", "_astro/app.js": "js" });
    const root = path.join(store.dir, name);
    expect(fs.readdirSync(root).sort()).toEqual([releaseMetaFile, "_astro", "index.html"]);
    expect(readReleaseMeta(root)).toMatchObject({ kind: "full", base: null });
    expect(Number.isNaN(Date.parse(readReleaseMeta(root)!.createdAt))).toBe(false);
  });

  it("keeps the list of inline-script hashes the build wrote", () => {
    const staged = store.stage();
    writeFiles(staged.dir, { "index.html": "home" });
    writeScriptHashes(staged.dir, ["sha256-b", "sha256-a"]);
    store.publish(staged, { kind: "full", base: null });
    const root = path.join(store.dir, staged.name);
    expect(fs.readdirSync(root).sort()).toEqual([scriptHashesFile, releaseMetaFile, "index.html"].sort());
    expect(readScriptHashes(root)).toEqual(["sha256-a", "sha256-b"]);
  });

  it("keeps the packed product pages a full build wrote", async () => {
    const staged = store.stage();
    const pack = new PagePackWriter(staged.dir);
    pack.add("product/kibble.html", Buffer.from("kibble"));
    pack.finish();
    store.publish(staged, { kind: "full", base: null });
    const root = path.join(store.dir, staged.name);
    expect(fs.readdirSync(root).sort()).toEqual([".pages-1.pack", ".pages.json", releaseMetaFile].sort());
    expect((await readPacked(readPackedPages(root)!.get("product/kibble.html")!)).toString()).toBe("kibble");
  });

  it("names releases so that they sort by creation", () => {
    const created = [release({ a: "1" }), release({ a: "2" }), release({ a: "3" })];
    expect([...created].sort()).toEqual(created);
    expect(new Set(created).size).toBe(3);
  });

  it("discards a staged release with its snapshot folder", async () => {
    const staged: StagedRelease = store.stage();
    writeFiles(staged.dir, { "index.html": "half" });
    writeFiles(staged.scratch, { "catalogue.db": "db" });
    await store.discard(staged);
    expect(names()).toEqual([]);
    expect(store.currentName()).toBeNull();
  });
});

describe("the served release as a page request asks for it", () => {
  /** Points current at `name` as another process's publish does: a new link renamed over it. */
  function publishElsewhere(name: string): void {
    const temporary = path.join(store.dir, ".current-elsewhere");
    fs.symlinkSync(name, temporary);
    fs.renameSync(temporary, path.join(store.dir, "current"));
  }

  it("follows another process's publish once the folder's change is seen, reading the link only then", async () => {
    const first = release({ "index.html": "one" });
    const second = release({ "index.html": "two" });
    expect(store.currentRoot()).toBe(path.join(store.dir, second));
    publishElsewhere(first);
    // Kept until the change event arrives (the link is not read per request)...
    expect(store.currentRoot()).toBe(path.join(store.dir, second));
    // ...then read again.
    await expect.poll(() => store.currentRoot()).toBe(path.join(store.dir, first));
    publishElsewhere(second);
    await expect.poll(() => store.currentRoot()).toBe(path.join(store.dir, second));
    // This store's own publish shows at once, before any event.
    const third = release({ "index.html": "three" });
    expect(store.currentRoot()).toBe(path.join(store.dir, third));
  });

  it("follows a releases folder deleted and made again", async () => {
    release({ "index.html": "one" });
    const second = release({ "index.html": "two" });
    expect(store.currentRoot()).toBe(path.join(store.dir, second));
    fs.rmSync(store.dir, { recursive: true });
    await expect.poll(() => store.currentRoot()).toBeNull();
    const third = release({ "index.html": "three" });
    expect(store.currentRoot()).toBe(path.join(store.dir, third));
    publishElsewhere("elsewhere");
    await expect.poll(() => store.currentRoot()).toBe(path.join(store.dir, "elsewhere"));
  });

  it("is read every time while the folder cannot be watched (before it exists)", () => {
    expect(store.currentRoot()).toBeNull();
    fs.mkdirSync(store.dir, { recursive: true });
    publishElsewhere("made-by-hand");
    expect(store.currentRoot()).toBe(path.join(store.dir, "made-by-hand"));
  });
});

describe("fast releases", () => {
  it("look a file up in the fast release first, then in its base", () => {
    const base = release({ "index.html": "base home", "about/index.html": "about" });
    const fast = release({ "index.html": "new home" }, { kind: "fast", base });
    expect(releaseLayers(path.join(store.dir, fast))).toEqual([path.join(store.dir, fast), path.join(store.dir, base)]);
    expect(releaseLayers(path.join(store.dir, base))).toEqual([path.join(store.dir, base)]);
  });

  it("carry forward the files an earlier fast release rewrote, as links, without replacing newer ones", async () => {
    const base = release({ "index.html": "base", "product/a/index.html": "a0", "product/b/index.html": "b0" });
    const first = release({ "index.html": "home1", "product/a/index.html": "a1" }, { kind: "fast", base });
    const staged = store.stage();
    writeFiles(staged.dir, { "index.html": "home2", "product/b/index.html": "b2" });
    await store.carryForward(staged, first);
    store.publish(staged, { kind: "fast", base });
    const root = path.join(store.dir, staged.name);
    const read = (file: string) => fs.readFileSync(path.join(root, file), "utf8");
    expect(read("index.html")).toBe("home2");
    expect(read("product/a/index.html")).toBe("a1");
    expect(read("product/b/index.html")).toBe("b2");
    expect(fs.statSync(path.join(root, "product/a/index.html")).ino).toBe(
      fs.statSync(path.join(store.dir, first, "product/a/index.html")).ino,
    );
    // The earlier release's own bookkeeping is not copied: the new one has its own.
    expect(readReleaseMeta(root)).toMatchObject({ kind: "fast", base });
  });

  it("carry forward a page with all its stored forms or none of them, and the hashes of its scripts", async () => {
    const base = release({ "index.html": "base" });
    const staged = store.stage();
    writeFiles(staged.dir, {
      "index.html": "home1",
      "index.html.gz": "home1 gzip",
      "index.html.br": "home1 brotli",
      "product/a/index.html.gz": "a1 gzip",
    });
    writeScriptHashes(staged.dir, ["sha256-first"]);
    store.publish(staged, { kind: "fast", base });
    const next = store.stage();
    // This build stored its home page as it is only, and a product page the first did not render.
    writeFiles(next.dir, { "index.html": "home2", "product/b/index.html.gz": "b2 gzip" });
    writeScriptHashes(next.dir, ["sha256-second"]);
    await store.carryForward(next, staged.name);
    store.publish(next, { kind: "fast", base });
    const root = path.join(store.dir, next.name);
    expect(fs.readdirSync(root).filter((name) => name.startsWith("index.html"))).toEqual(["index.html"]);
    expect(fs.readFileSync(path.join(root, "index.html"), "utf8")).toBe("home2");
    expect(fs.readdirSync(path.join(root, "product")).sort()).toEqual(["a", "b"]);
    expect(fs.readFileSync(path.join(root, "product/a/index.html.gz"), "utf8")).toBe("a1 gzip");
    expect(readScriptHashes(root)).toEqual(["sha256-first", "sha256-second"]);
  });
});

describe("cleanup", () => {
  it("keeps the newest three releases and deletes the rest", async () => {
    const created = Array.from({ length: 5 }, (_, i) => release({ "index.html": String(i) }));
    expect(await store.cleanup(3)).toEqual(created.slice(0, 2));
    expect(names()).toEqual([...created.slice(2), "current"].sort());
    expect(await store.cleanup(3)).toEqual([]);
  });

  it("keeps the served release and the full release the kept fast ones stand on", async () => {
    const base = release({ "index.html": "base" });
    const fast = Array.from({ length: 4 }, (_, i) => release({ "index.html": `fast ${i}` }, { kind: "fast", base }));
    // An older release is served again (published by hand, say).
    fs.rmSync(path.join(store.dir, "current"));
    fs.symlinkSync(fast[0]!, path.join(store.dir, "current"));
    expect(await store.cleanup(2)).toEqual([fast[1]]);
    expect(names()).toEqual([base, fast[0], fast[2], fast[3], "current"].sort());
  });

  it("deletes what builds of ended processes left, never a running process's build", async () => {
    const kept = release({ "index.html": "live" });
    const ended = spawn(process.execPath, ["-e", ""]);
    const endedPid = await new Promise<number>((resolve) => ended.on("exit", () => resolve(ended.pid!)));
    const stamp = "20261122T100000000Z-abcdef";
    for (const leftover of [`.building-${stamp}-${endedPid}`, `.snapshot-${stamp}-${endedPid}`, `.current-${endedPid}-0a1b2c3d`]) {
      fs.mkdirSync(path.join(store.dir, leftover));
    }
    const running = `.building-${stamp}-${process.ppid}`;
    const ours = store.stage();
    fs.mkdirSync(path.join(store.dir, running));
    const removed = await store.cleanup(3);
    expect(removed.sort()).toEqual([`.building-${stamp}-${endedPid}`, `.current-${endedPid}-0a1b2c3d`, `.snapshot-${stamp}-${endedPid}`]);
    expect(names()).toEqual([path.basename(ours.dir), path.basename(ours.scratch), running, kept, "current"].sort());
  });
});

describe("database snapshots (a copy of the whole database: e-mail addresses, the admin hash)", () => {
  const mode = (file: string) => fs.statSync(file).mode & 0o777;

  it("are made owner-only, the file (0600) and its folder (0700), whatever the umask lets through", async () => {
    await withPermissiveUmask(() => {
      const staged = store.stage();
      const file = createSnapshotFile(staged);
      expect(path.dirname(file)).toBe(staged.scratch);
      expect(mode(staged.scratch)).toBe(0o700);
      expect(mode(file)).toBe(0o600);
      expect(fs.statSync(file).size).toBe(0);
    });
  });

  it("go at once with discardSnapshot, the staged release staying", () => {
    const staged = store.stage();
    createSnapshotFile(staged);
    store.discardSnapshot(staged);
    expect(fs.existsSync(staged.scratch)).toBe(false);
    expect(fs.existsSync(staged.dir)).toBe(true);
  });

  it("left by ended processes, or by an earlier process with this one's id, are deleted at start; a running process's stay", async () => {
    const kept = release({ "index.html": "live" });
    const ended = spawn(process.execPath, ["-e", ""]);
    const endedPid = await new Promise<number>((resolve) => ended.on("exit", () => resolve(ended.pid!)));
    const stamp = "20261122T100000000Z-abcdef";
    const leftovers = [`.snapshot-${stamp}-${endedPid}`, `.snapshot-${stamp}-${process.pid}`];
    for (const leftover of leftovers) {
      fs.mkdirSync(path.join(store.dir, leftover));
      fs.writeFileSync(path.join(store.dir, leftover, "catalogue.db"), "a copy of the database");
    }
    const running = `.snapshot-${stamp}-${process.ppid}`;
    const building = `.building-${stamp}-${endedPid}`;
    for (const other of [running, building]) fs.mkdirSync(path.join(store.dir, other));
    expect(store.removeLeftoverSnapshots().sort()).toEqual([...leftovers].sort());
    expect(names()).toEqual([building, running, kept, "current"].sort());
  });
});
