/**
 * Release folders of the built site. Every build goes into a fresh folder; the served site
 * switches to it only when it succeeded, by replacing the `current` link with a rename (atomic:
 * a request sees the old release or the new one, never a mix or nothing). A build that fails or
 * is killed leaves the live release exactly as it was.
 *
 * A releases folder holds:
 *   <name>/                   a finished release; .release.json says what kind, .csp.json lists
 *                             the hashes of its pages' inline scripts, .pages.json and
 *                             .pages-<n>.pack hold a full release's product pages
 *                             (page-pack.ts) (dot files: never served)
 *   current -> <name>         the release being served
 *   .building-<name>-<pid>/   a build under way; renamed to <name> when it succeeded
 *   .snapshot-<name>-<pid>/   the database snapshot a build reads: a copy of the whole database
 *                             (e-mail addresses, the admin hash), so the folder is owner-only
 *                             (0700) and the file too (0600); removed as soon as the build has
 *                             read it, and at the next start when a killed build left it
 *   node_modules              a link to the project's, when the folder is outside the project
 *
 * A full release has every page. A fast release holds only the pages a few products' changes
 * affect, plus the pages earlier fast releases over the same full release rewrote, and is served
 * in front of that full release (its base): a file missing from it comes from the base. Names
 * sort by creation time.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { projectRoot } from "../../data/config.ts";
import { isPageStoreFile } from "./page-pack.ts";

export interface ReleaseMeta {
  kind: "full" | "fast";
  /** The full release a fast one is laid over; null for a full release. */
  base: string | null;
  createdAt: string;
  /**
   * The catalogue revision (data/db/catalogue-revision.ts) up to which every catalogue change
   * shows in this release; absent or null: unknown (an older release, or a fast build that could
   * not tell), which a starting server treats as out of date.
   */
  catalogueRevision?: number | null;
}

export const releaseMetaFile = ".release.json";
/** `{ "scriptHashes": ["sha256-...", ...] }`: the CSP hashes of the inline scripts in the release's HTML. */
export const scriptHashesFile = ".csp.json";
/** The dot files a build writes that stay in the published release: the script hashes, the packed pages. */
const keptDotFile = (name: string) => name === scriptHashesFile || isPageStoreFile(name);
const currentLink = "current";
const releaseName = /^\d{8}T\d{9}Z-[0-9a-f]{6}$/;
const snapshotName = /^\.snapshot-\d{8}T\d{9}Z-[0-9a-f]{6}-(\d+)$/;
const scratchName = /^\.(?:building|snapshot|current)-(\d{8}T\d{9}Z-[0-9a-f]{6}-)?(\d+)(?:-[0-9a-f]+)?$/;

/** SITE_RELEASES_DIR, else dist/releases in the project (git-ignored with the rest of dist/). */
export function releasesDirFromEnv(): string {
  const configured = process.env.SITE_RELEASES_DIR?.trim();
  return configured ? path.resolve(projectRoot, configured) : path.join(projectRoot, "dist/releases");
}

export function readReleaseMeta(root: string): ReleaseMeta | null {
  try {
    return JSON.parse(fs.readFileSync(path.join(root, releaseMetaFile), "utf8")) as ReleaseMeta;
  } catch {
    return null;
  }
}

export function writeScriptHashes(dir: string, hashes: readonly string[]): void {
  fs.writeFileSync(path.join(dir, scriptHashesFile), `${JSON.stringify({ scriptHashes: [...hashes].sort() })}\n`);
}

/** The CSP hashes a release folder's HTML needs (one layer's own; empty when it lists none). */
export function readScriptHashes(dir: string): string[] {
  try {
    const { scriptHashes } = JSON.parse(fs.readFileSync(path.join(dir, scriptHashesFile), "utf8")) as { scriptHashes?: unknown };
    return Array.isArray(scriptHashes) ? scriptHashes.filter((hash): hash is string => typeof hash === "string") : [];
  } catch {
    return [];
  }
}

/** A stored file's own path: without the suffix of a compressed variant (index.html.gz is index.html). */
const storedAsset = (file: string) => file.replace(/\.(?:gz|br)$/, "");

/** The folders a release's files are looked up in, first match wins: itself, then its base. */
export function releaseLayers(root: string): string[] {
  const base = readReleaseMeta(root)?.base;
  return base ? [root, path.join(path.dirname(root), base)] : [root];
}

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
};

export interface StagedRelease {
  name: string;
  /** Where the build writes; becomes the release when published. */
  dir: string;
  /** An owner-only folder for the build's database snapshot, removed with `discard`/after publishing. */
  scratch: string;
}

/** The snapshot file of a staged release (in its scratch folder). */
export const snapshotFile = (staged: StagedRelease) => path.join(staged.scratch, "catalogue.db");

/**
 * Creates the staged release's snapshot file, empty and readable by the owner only (0600), for
 * SQLite's backup to fill: SQLite keeps an existing file's mode (and gives its journal files the
 * same), where a file it creates itself would be world-readable. Returns its path.
 */
export function createSnapshotFile(staged: StagedRelease): string {
  const file = snapshotFile(staged);
  fs.closeSync(fs.openSync(file, "wx", 0o600));
  // The mode asked for passes through the umask, which can only take bits away.
  fs.chmodSync(file, 0o600);
  return file;
}

export interface ReleaseStore {
  readonly dir: string;
  /** The release being served (its name), or null before the first. */
  currentName(): string | null;
  /**
   * The served release's folder, or null before the first. Asked for on every page request, so
   * it is read from the link only after the releases folder changed (watched; a publish through
   * this store counts at once): see `watchedLink`.
   */
  currentRoot(): string | null;
  meta(name: string): ReleaseMeta | null;
  /** A new release's folders, not served until published. */
  stage(): StagedRelease;
  /**
   * Copies, as hard links, the files of a fast release `from` that `staged` does not have (the
   * pages earlier fast builds rewrote stay rewritten), and adds their script hashes to its own.
   * A file counts with its compressed variants: none of a page's stored forms is carried when
   * `staged` has any of them.
   */
  carryForward(staged: StagedRelease, from: string): Promise<void>;
  /**
   * Removes build leftovers (dot entries such as .prerender; not .csp.json), then makes `staged` the served
   * release. Its snapshot folder stays until `discard`.
   */
  publish(staged: StagedRelease, meta: Omit<ReleaseMeta, "createdAt">): void;
  /** Deletes a staged release's folders: all of a release that will not be published, the snapshot of a published one. */
  discard(staged: StagedRelease): Promise<void>;
  /** Deletes a staged release's snapshot folder (the copy of the database), at once. */
  discardSnapshot(staged: StagedRelease): void;
  /**
   * Deletes the snapshot folders that builds of ended processes left (a build killed half-way),
   * and this process's own: call at start, before this process stages a build. Returns their names.
   */
  removeLeftoverSnapshots(): string[];
  /**
   * Deletes old releases, keeping the newest `keep`, the served one and the full releases they
   * stand on; and leftovers of builds whose process has ended. Returns the names deleted.
   */
  cleanup(keep: number): Promise<string[]>;
}

let lastNameMs = 0;

/** A release name: its creation time (later than any earlier name of this process) and a random suffix. */
function newReleaseName(): string {
  lastNameMs = Math.max(Date.now(), lastNameMs + 1);
  return `${new Date(lastNameMs).toISOString().replace(/[-:.]/g, "")}-${crypto.randomBytes(3).toString("hex")}`;
}

/**
 * A symbolic link's target, read again only after its folder changed. Reading the link was a
 * system call per page request (about 4.5 µs of a static page's 60); a watch on the folder (inotify)
 * costs nothing between changes. Any event in the folder drops the kept value and the watch, and
 * the next read watches again before it reads the link, so no change between the two is missed
 * (nor a folder deleted and made again). `changed()` drops the kept value at once (a change made
 * by this process). Where the folder cannot be watched (missing, or a file system without change
 * events) the link is read every time.
 */
function watchedLink(folder: string, name: string): { read(): string | null; changed(): void } {
  const link = path.join(folder, name);
  const readNow = (): string | null => {
    try {
      return fs.readlinkSync(link);
    } catch {
      return null;
    }
  };
  let watcher: fs.FSWatcher | null = null;
  /** The target while the watch holds; undefined: read it. */
  let kept: string | null | undefined;
  const forget = () => {
    kept = undefined;
    watcher?.close();
    watcher = null;
  };
  return {
    read() {
      if (kept !== undefined) return kept;
      try {
        watcher = fs.watch(folder, { persistent: false }, forget);
        watcher.on("error", forget);
      } catch {
        return readNow();
      }
      kept = readNow();
      return kept;
    },
    changed: forget,
  };
}

export function createReleaseStore(dir: string): ReleaseStore {
  const link = path.join(dir, currentLink);
  const served = watchedLink(dir, currentLink);

  const currentName = (): string | null => {
    try {
      return fs.readlinkSync(link);
    } catch {
      return null;
    }
  };

  const meta = (name: string) => readReleaseMeta(path.join(dir, name));

  const entries = () => (fs.existsSync(dir) ? fs.readdirSync(dir) : []);
  let lastName: string | null = null;
  let lastRoot: string | null = null;


  return {
    dir,
    currentName,
    currentRoot() {
      // The same name gives the same string (no new path each time).
      const name = served.read();
      if (name !== lastName) {
        lastName = name;
        lastRoot = name === null ? null : path.join(dir, name);
      }
      return lastRoot;
    },
    meta,
    stage() {
      const name = newReleaseName();
      const staged = {
        name,
        dir: path.join(dir, `.building-${name}-${process.pid}`),
        scratch: path.join(dir, `.snapshot-${name}-${process.pid}`),
      };
      fs.mkdirSync(staged.dir, { recursive: true });
      fs.mkdirSync(staged.scratch, { mode: 0o700 });
      fs.chmodSync(staged.scratch, 0o700);
      return staged;
    },
    async carryForward(staged, from) {
      const source = path.join(dir, from);
      const entries = await fs.promises.readdir(source, { recursive: true, withFileTypes: true });
      const hasAnyForm = (asset: string) => ["", ".gz", ".br"].some((suffix) => fs.existsSync(path.join(staged.dir, asset + suffix)));
      // Which pages staged had before copying: a page's forms come all from one release.
      const staysOwn = new Map<string, boolean>();
      for (const entry of entries) {
        if (!entry.isFile() || entry.name === releaseMetaFile || entry.name === scriptHashesFile) continue;
        const relative = path.relative(source, path.join(entry.parentPath, entry.name));
        const asset = storedAsset(relative);
        if (!staysOwn.has(asset)) staysOwn.set(asset, hasAnyForm(asset));
        if (staysOwn.get(asset)) continue;
        const target = path.join(staged.dir, relative);
        await fs.promises.mkdir(path.dirname(target), { recursive: true });
        await fs.promises.link(path.join(source, relative), target);
      }
      const hashes = new Set([...readScriptHashes(staged.dir), ...readScriptHashes(source)]);
      writeScriptHashes(staged.dir, [...hashes]);
    },
    publish(staged, release) {
      for (const entry of fs.readdirSync(staged.dir)) {
        if (entry.startsWith(".") && !keptDotFile(entry)) fs.rmSync(path.join(staged.dir, entry), { recursive: true, force: true });
      }
      const full: ReleaseMeta = { ...release, createdAt: new Date().toISOString() };
      fs.writeFileSync(path.join(staged.dir, releaseMetaFile), `${JSON.stringify(full, null, 2)}\n`);
      const final = path.join(dir, staged.name);
      fs.renameSync(staged.dir, final);
      const temporary = path.join(dir, `.current-${process.pid}-${crypto.randomBytes(4).toString("hex")}`);
      fs.symlinkSync(staged.name, temporary);
      fs.renameSync(temporary, link);
      served.changed();
    },
    async discard(staged) {
      fs.rmSync(staged.scratch, { recursive: true, force: true });
      await fs.promises.rm(staged.dir, { recursive: true, force: true });
    },
    discardSnapshot(staged) {
      fs.rmSync(staged.scratch, { recursive: true, force: true });
    },
    removeLeftoverSnapshots() {
      const leftovers = entries().filter((entry) => {
        const pid = snapshotName.exec(entry)?.[1];
        return pid !== undefined && (Number(pid) === process.pid || !isAlive(Number(pid)));
      });
      for (const name of leftovers) fs.rmSync(path.join(dir, name), { recursive: true, force: true });
      return leftovers;
    },
    async cleanup(keep) {
      const releases = entries()
        .filter((name) => releaseName.test(name))
        .sort();
      const kept = new Set(releases.slice(-keep));
      const current = currentName();
      if (current !== null) kept.add(current);
      for (const name of [...kept]) {
        const base = meta(name)?.base;
        if (base) kept.add(base);
      }
      const doomed = releases.filter((name) => !kept.has(name));
      for (const entry of entries()) {
        const pid = scratchName.exec(entry)?.[2];
        if (pid !== undefined && Number(pid) !== process.pid && !isAlive(Number(pid))) doomed.push(entry);
      }
      // One at a time: deleting tens of thousands of files slows this disk for everything else.
      for (const name of doomed) await fs.promises.rm(path.join(dir, name), { recursive: true, force: true });
      return doomed;
    },
  };
}
