/**
 * How the build stores what it renders, shared by the build worker (which writes it) and the
 * site handler (which reads it back).
 *
 * Text files are stored precompressed, so the server sends the stored bytes as they are:
 * - product pages (tens of thousands of them, each asked for rarely): brotli only, quality 0; a
 *   full build packs them a few files in all (api/site-build/page-pack.ts), a fast rebuild writes
 *   the few it changes a file each.
 *   Storing a 42 KB page as its ~12 KB brotli is what keeps a large catalogue's release small
 *   (and writes a quarter of the bytes). Brotli's fastest qualities compress a page in under half
 *   the CPU time of gzip's fastest level (about 0.12 against 0.35 ms here) for a page about as
 *   small: on 50,000 pages, more than 10 s of CPU a build. Browsers send
 *   `br` over HTTPS (Chromium to localhost too), and the big crawlers accept it; a client that accepts
 *   gzip only gets the page recompressed as gzip on the fly, one that accepts neither gets it
 *   decompressed (see api/http/site.ts).
 * - the other rendered files (the few dozen shared pages, the sitemaps): as they are, plus gzip
 *   level 9 and brotli quality 5. Every fast rebuild renders them again; brotli's top quality
 *   would cost 0.6 s per 200 KB page for a file 10% smaller.
 * - Vite's hashed assets and the public folder's text files: as they are, plus gzip 9 and brotli
 *   at its top quality: written once per full build, then cached by browsers for a year.
 * A variant is written only where it pays (the file is at least `minCompressBytes` and its
 * compressed form is smaller by a tenth).
 *
 * The build also lists the hashes of the inline scripts in the HTML it wrote, for the pages'
 * Content-Security-Policy (see `inlineScriptHashes`).
 */
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import zlib from "node:zlib";
import { readPacked, readPackedPages } from "./page-pack.ts";

/** The stored variants' file suffixes, best first (what the server offers, in this order). */
export const encodingSuffixes = { br: ".br", gzip: ".gz" } as const;
export type Encoding = keyof typeof encodingSuffixes;

/**
 * Product pages are stored one file each, `product/<slug>.html` (gz), not in a folder each as
 * Astro lays pages out (`product/<slug>/index.html`): on this kind of disk, making a folder and
 * then a file in it cost several times the system time of the file alone, the largest cost of
 * writing 50,000 pages.
 */
export const flatPagesFolder = "product";

/** Where a built page is stored: `<folder>/<name>.html` for product pages, else Astro's `<path>/index.html`. */
export function storedPagePath(pathname: string): string {
  const relative = pathname.replace(/^\/+|\/+$/g, "");
  if (relative === "") return "index.html";
  return isFlatPage(relative) ? `${relative}.html` : `${relative}/index.html`;
}

/** `relative` has no leading or trailing slash: "product/<slug>" is a product page, nothing deeper. */
const isFlatPage = (relative: string) => {
  const [folder, name, ...rest] = relative.split("/");
  return folder === flatPagesFolder && name !== undefined && rest.length === 0;
};

/**
 * The stored files a request path may name, in lookup order: the file itself; a product page
 * (stored flat, or in a folder by a release built before they were stored flat); a folder's
 * index.html.
 */
export function storedCandidates(id: string): string[] {
  if (id === "") return ["index.html"];
  if (isFlatPage(id)) return [`${id}.html`, `${id}/index.html`];
  return [id, `${id}/index.html`];
}

/** Files smaller than this are stored as they are: compressing them saves less than a packet. */
const minCompressBytes = 1024;

const gzip = promisify(zlib.gzip);
const brotli = promisify(zlib.brotliCompress);

/** Extensions of the files stored with compressed variants (text; images and fonts are compressed already). */
export const compressibleFile = /\.(?:html|css|js|mjs|json|xml|txt|svg|webmanifest|map)$/;

/** How hard to compress: `pages` for what every rebuild renders again, `assets` for what is built once. */
export type Effort = "pages" | "assets";

// zlib runs in libuv's thread pool: compressing one page overlaps with rendering the next.
const gzipOf = (body: Buffer, level: number) => gzip(body, { level });
const brotliOf = (body: Buffer, effort: Effort) =>
  brotli(body, {
    params: {
      [zlib.constants.BROTLI_PARAM_QUALITY]: effort === "assets" ? zlib.constants.BROTLI_MAX_QUALITY : 5,
      [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
      [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
    },
  });

const pays = (compressed: Buffer, plain: Buffer) => compressed.length <= plain.length * 0.9;

/**
 * Brotli for product pages: quality 0, a 256 KB window (larger than any page, smaller to set up
 * than the default 4 MB). On 300 product pages here quality 0 took 111-118 µs a page against
 * 156-166 µs at quality 1, for pages 2% larger (14.75 against 14.42 KB): over 50,000 pages about
 * 2 s of a build's CPU for a third of a kilobyte a page.
 */
const productPageBrotli = {
  params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 0, [zlib.constants.BROTLI_PARAM_LGWIN]: 18 },
};

/**
 * A rendered body's bytes, as its stream hands them over: Astro's page body arrives as one chunk,
 * which is used as it is; `response.arrayBuffer()` would copy it twice more. Memory allocated
 * outside the JavaScript heap (these buffers) is what starts most of a build's full garbage
 * collections, so fewer copies mean fewer of them: 15 instead of 18 at 10,000 products.
 */
export async function bodyBytes(stream: ReadableStream<Uint8Array>): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  const only = chunks.length === 1 ? chunks[0]! : null;
  return only ? Buffer.from(only.buffer, only.byteOffset, only.byteLength) : Buffer.concat(chunks);
}

/**
 * Writes a product page as its brotli only (`file` + ".br"), compressing and writing on the calling
 * thread. A large build keeps every core busy rendering, so handing the work to libuv's thread
 * pool overlaps nothing; it adds a thread wake-up and a promise for the compression and for each
 * of open, write and close, and pool threads creating files in one folder contend for its lock.
 * In 10,000-page builds here that overhead cost more CPU than the compression itself: 50.1 CPU-s
 * for the build in the pool, 42.7 on the calling thread (means of three).
 */
export function writeBrotliOnly(file: string, body: Buffer): void {
  fs.writeFileSync(file + encodingSuffixes.br, compressProductPage(body));
}

/** A product page's brotli form, as stored (a file of its own, or in a pack: api/site-build/page-pack.ts). */
export const compressProductPage = (body: Buffer): Buffer => zlib.brotliCompressSync(body, productPageBrotli);

/** Writes a file as it is, plus its gzip and brotli variants where they pay. */
export async function writeWithVariants(file: string, body: Buffer, effort: Effort = "pages"): Promise<void> {
  await fs.promises.writeFile(file, body);
  await addVariants(file, body, effort);
}

/** Adds gzip and brotli variants beside a file already written. */
async function addVariants(file: string, body: Buffer, effort: Effort): Promise<void> {
  if (body.length < minCompressBytes) return;
  const [gzipped, brotlied] = await Promise.all([gzipOf(body, 9), brotliOf(body, effort)]);
  if (pays(gzipped, body)) await fs.promises.writeFile(file + encodingSuffixes.gzip, gzipped);
  if (pays(brotlied, body)) await fs.promises.writeFile(file + encodingSuffixes.br, brotlied);
}

/**
 * Adds compressed variants, with the most effort, to the text files under `dir` that have none
 * (what Vite and the public folder put there), skipping dot entries and the folders in `skip`.
 */
export async function precompressFolder(dir: string, skip: ReadonlySet<string> = new Set()): Promise<void> {
  for (const entry of await fs.promises.readdir(dir, { withFileTypes: true })) {
    if (entry.name.startsWith(".") || skip.has(entry.name)) continue;
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) await precompressFolder(file);
    else if (entry.isFile() && compressibleFile.test(entry.name) && !fs.existsSync(file + encodingSuffixes.gzip)) {
      await addVariants(file, await fs.promises.readFile(file), "assets");
    }
  }
}

/**
 * The file stored at `relative` in the folder `root`, whichever form it was stored as (a file or
 * a compressed variant of its own, else a packed page), uncompressed; null if none.
 */
export async function readStored(root: string, relative: string): Promise<Buffer | null> {
  const file = path.join(root, relative);
  const plain = await fs.promises.readFile(file).catch(() => null);
  if (plain) return plain;
  const gzipped = await fs.promises.readFile(file + encodingSuffixes.gzip).catch(() => null);
  if (gzipped) return zlib.gunzipSync(gzipped);
  const brotlied = await fs.promises.readFile(file + encodingSuffixes.br).catch(() => null);
  if (brotlied) return zlib.brotliDecompressSync(brotlied);
  const packed = readPackedPages(root)?.get(relative);
  return packed ? zlib.brotliDecompressSync(await readPacked(packed)) : null;
}

const scriptElement = /<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi;
const typeAttribute = /(?:^|\s)type\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+))/i;
const srcAttribute = /(?:^|\s)src(?:\s*=|\s|$)/i;
/** Types a browser runs: none (classic script), module, or a JavaScript MIME type; anything else is a data block. */
const executableType = /^(?:|module|(?:text|application)\/(?:x-)?(?:javascript|ecmascript)|text\/jscript)$/;

/** Hashes already worked out, by script text (as read in Latin-1): the same few scripts appear on every page. */
const hashByScript = new Map<string, string>();

/**
 * Adds to `into` the CSP source of each executable inline script in a page (its UTF-8 bytes):
 * `sha256-` and the base64 SHA-256 of the script's bytes exactly as written between its tags.
 * Scripts with a src attribute load from a file (allowed by 'self'); data blocks
 * (application/ld+json, application/json, ...) never run. The page is read as Latin-1, one
 * character per byte: its markup is ASCII and reads the same, and each script's characters
 * turn back into its bytes exactly. Decoding a 60 KB page as UTF-8 instead (it holds "£") took
 * a product build about 8 µs per KB.
 */
export function inlineScriptHashes(page: Buffer, into: Set<string>): void {
  for (const [, attributes, text] of page.toString("latin1").matchAll(scriptElement)) {
    if (srcAttribute.test(attributes!)) continue;
    const type = typeAttribute.exec(attributes!);
    const value = (type?.[1] ?? type?.[2] ?? type?.[3] ?? "").trim().toLowerCase();
    if (!executableType.test(value)) continue;
    let hash = hashByScript.get(text!);
    if (!hash) {
      hash = `sha256-${crypto.createHash("sha256").update(text!, "latin1").digest("base64")}`;
      if (hashByScript.size < 10_000) hashByScript.set(text!, hash);
    }
    into.add(hash);
  }
}
