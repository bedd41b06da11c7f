/**
 * The product pages of a full build, stored together: each build process appends the brotli form
 * of every product page it renders to one pack file, and the release's page index says where each
 * page's bytes are (its pack, offset and length). A request for a product page then reads its
 * bytes from the pack; nothing is served by the pack's own name (dot files never are).
 *
 * Why not a file each: creating a file costs far more than writing its bytes on this kind of
 * disk, and the cost grows while the disk is busy (deleting an old release's tens of thousands of
 * files keeps it busy for minutes). In a 10,000-product build here, open() alone took a quarter of
 * each rendering process's CPU time just after such a deletion. Packed, a 50,000-product release
 * is a few dozen files, written, moved and deleted in moments.
 *
 * Fast rebuilds write the few pages they change as files (api/site-build/output.ts), in a release
 * laid over the full one: a layer's own files come before its packed pages (api/http/site.ts).
 *
 * A release folder with packed pages holds:
 *   .pages.json        { "packs": [".pages-1.pack", ...], "paths": ["product/<slug>.html", ...],
 *                        "places": [pack, offset, length, ...] } (three numbers per path: the
 *                        pack's position in "packs", where the page's bytes start, how many);
 *                        flat lists, as 50,000 keys of one object took several times as long to read
 *   .pages-<n>.pack    the brotli forms of its pages, one after another
 */
import fs from "node:fs";
import path from "node:path";

export const pageIndexFile = ".pages.json";
const packName = (number: number) => `.pages-${number}.pack`;
/** The page index and the packs: the dot files a release with packed pages keeps when published. */
export const isPageStoreFile = (name: string) => name === pageIndexFile || /^\.pages-\d+\.pack$/.test(name);

/** A page's bytes: in which pack (its position in `packs`), from which offset, how many. */
type Entry = [pack: number, offset: number, length: number];

interface PageIndex {
  packs: string[];
  paths: string[];
  /** Three numbers per path, in the same order: its Entry. */
  places: number[];
}

/** Where a packed page's bytes are. */
export interface PackedPage {
  /** The pack file (absolute path). */
  file: string;
  offset: number;
  length: number;
}

/**
 * Appends pages to a new pack in `dir` and, on `finish`, writes the folder's page index. One
 * process writes one pack; the builder merges helpers' packs into the release (`mergePagePacks`).
 * The pack file is made with the first page: Astro empties its output folder when its build
 * starts, after the writer for that build is made.
 */
export class PagePackWriter {
  private readonly dir: string;
  private fd: number | null = null;
  private readonly file = packName(1);
  private readonly paths: string[] = [];
  private readonly places: number[] = [];
  private offset = 0;
  private count = 0;
  constructor(dir: string) {
    this.dir = dir;
  }

  /** Stores `bytes` (a page's brotli form) as the page stored at `relative` (e.g. product/<slug>.html). */
  add(relative: string, bytes: Uint8Array): void {
    if (this.fd === null) {
      fs.mkdirSync(this.dir, { recursive: true });
      this.fd = fs.openSync(path.join(this.dir, this.file), "w");
    }
    const fd = this.fd;
    for (let written = 0; written < bytes.length; ) written += fs.writeSync(fd, bytes, written, bytes.length - written);
    this.paths.push(relative);
    this.places.push(0, this.offset, bytes.length);
    this.offset += bytes.length;
    this.count++;
  }

  /** How many pages were added. */
  get size(): number {
    return this.count;
  }

  /** Closes the pack and writes the index; a writer that took no page leaves nothing behind. */
  finish(): void {
    if (this.fd === null) return;
    fs.closeSync(this.fd);
    this.fd = null;
    writeIndex(this.dir, { packs: [this.file], paths: this.paths, places: this.places });
  }

  /** Closes the pack without an index (a failed job: its folder is discarded). */
  abandon(): void {
    if (this.fd !== null) fs.closeSync(this.fd);
    this.fd = null;
  }
}

function writeIndex(dir: string, index: PageIndex): void {
  fs.writeFileSync(path.join(dir, pageIndexFile), JSON.stringify(index));
}

/** A relative path that stays inside its folder: no empty, "." or ".." segment (so no absolute path either). */
const isInside = (relative: unknown) =>
  typeof relative === "string" && relative.split("/").every((segment) => segment !== "" && segment !== "." && segment !== "..");

function readIndex(dir: string): PageIndex | null {
  let text: string;
  try {
    text = fs.readFileSync(path.join(dir, pageIndexFile), "utf8");
  } catch {
    return null;
  }
  const index = JSON.parse(text) as PageIndex;
  const file = path.join(dir, pageIndexFile);
  if (!Array.isArray(index.packs) || !Array.isArray(index.paths) || !Array.isArray(index.places) || index.places.length !== index.paths.length * 3) {
    throw new Error(`${file} is not a page index`);
  }
  for (const name of [...index.packs, ...index.paths]) {
    if (!isInside(name)) throw new Error(`${file} names a file outside its folder: ${name}`);
  }
  const { packs, paths, places } = index;
  for (let i = 0; i < paths.length; i++) {
    const pack = places[i * 3]!;
    const offset = places[i * 3 + 1]!;
    const length = places[i * 3 + 2]!;
    if (typeof pack !== "number" || packs[pack] === undefined) throw new Error(`${file} names a pack it does not list (${paths[i]})`);
    if (!Number.isSafeInteger(offset) || !Number.isSafeInteger(length) || offset < 0 || length < 0) throw new Error(`${file} places ${paths[i]} nowhere`);
  }
  return index;
}

/**
 * Moves the packed pages of each of `parts` (folders a build process wrote) into `dir`'s own:
 * their packs renamed after the ones `dir` has, one index listing them all. A page in several
 * folders is taken from the last.
 */
export function mergePagePacks(dir: string, parts: readonly string[]): void {
  const own = readIndex(dir);
  const packs = own?.packs ?? [];
  const pages = new Map<string, Entry>(own ? entriesOf(own) : []);
  let changed = false;
  for (const part of parts) {
    const index = readIndex(part);
    if (!index) continue;
    const renumbered = index.packs.map((pack) => {
      const name = packName(packs.length + 1);
      fs.renameSync(path.join(part, pack), path.join(dir, name));
      packs.push(name);
      return packs.length - 1;
    });
    for (const [page, [pack, offset, length]] of entriesOf(index)) pages.set(page, [renumbered[pack]!, offset, length]);
    fs.rmSync(path.join(part, pageIndexFile));
    changed = true;
  }
  if (changed) writeIndex(dir, { packs, paths: [...pages.keys()], places: [...pages.values()].flat() });
}

/** An index's pages with their places, in order. */
function entriesOf(index: PageIndex): [string, Entry][] {
  return index.paths.map((name, i) => [name, index.places.slice(i * 3, i * 3 + 3) as Entry]);
}

/**
 * The packed pages of a folder, for lookups by stored path; null when it has none. Held compactly
 * (one map from path to number, the positions in typed arrays): the index of a 50,000-page release
 * is a few MB in memory.
 */
export interface PackedPages {
  get(relative: string): PackedPage | undefined;
  /** The stored paths of the packed pages, in the order they were packed. */
  paths(): string[];
  readonly size: number;
  /** The newest modification time of the packs, in ms (what the pages' validators are made of). */
  readonly mtimeMs: number;
}

export function readPackedPages(dir: string): PackedPages | null {
  const index = readIndex(dir);
  if (!index) return null;
  const { paths, places } = index;
  const numbers = new Map<string, number>();
  const packs = new Uint16Array(paths.length);
  const offsets = new Float64Array(paths.length);
  const lengths = new Uint32Array(paths.length);
  paths.forEach((name, i) => {
    numbers.set(name, i);
    packs[i] = places[i * 3]!;
    offsets[i] = places[i * 3 + 1]!;
    lengths[i] = places[i * 3 + 2]!;
  });
  const files = index.packs.map((pack) => path.join(dir, pack));
  const mtimeMs = Math.max(...files.map((file) => fs.statSync(file).mtimeMs));
  return {
    size: numbers.size,
    mtimeMs,
    paths: () => [...numbers.keys()],
    get(relative) {
      const i = numbers.get(relative);
      return i === undefined ? undefined : { file: files[packs[i]!]!, offset: offsets[i]!, length: lengths[i]! };
    },
  };
}

/** A packed page's bytes. */
export async function readPacked(page: PackedPage): Promise<Buffer> {
  const handle = await fs.promises.open(page.file, "r");
  try {
    const bytes = Buffer.allocUnsafe(page.length);
    for (let read = 0; read < page.length; ) {
      const { bytesRead } = await handle.read(bytes, read, page.length - read, page.offset + read);
      if (bytesRead === 0) throw new Error(`${page.file} ends before the page at ${page.offset} (${page.length} bytes)`);
      read += bytesRead;
    }
    return bytes;
  } finally {
    await handle.close();
  }
}

/**
 * Writes each packed page of `dir` as a file of its own (`<path>.br`), unless the folder has a
 * form of that page as a file already (a later layer's), then removes the packs and the index:
 * the folder is then laid out as a site of plain files (a release's download).
 */
export async function unpackPages(dir: string): Promise<void> {
  const index = readIndex(dir);
  if (!index) return;
  const packed = readPackedPages(dir)!;
  const made = new Set<string>();
  const hasFile = (relative: string) => ["", ".gz", ".br"].some((suffix) => fs.existsSync(path.join(dir, relative + suffix)));
  for (const relative of packed.paths()) {
    if (hasFile(relative)) continue;
    const file = path.join(dir, `${relative}.br`);
    const folder = path.dirname(file);
    if (!made.has(folder)) {
      fs.mkdirSync(folder, { recursive: true });
      made.add(folder);
    }
    await fs.promises.writeFile(file, await readPacked(packed.get(relative)!));
  }
  for (const pack of index.packs) fs.rmSync(path.join(dir, pack), { force: true });
  fs.rmSync(path.join(dir, pageIndexFile), { force: true });
}
