/**
 * A release as one gzip tarball, its files at the archive's root (made with the `tar` package),
 * laid out as plain files: every product page is `product/<slug>.html.br`.
 * A release of plain files is archived as it is. A fast release holds only the pages its build
 * rewrote and is served over its base (releases.ts), and a full release packs its product pages
 * (page-pack.ts), so such a release is first laid into one folder of hard links (no file is
 * copied) with its packed pages written out as files, deleted once the archive has been read or
 * abandoned.
 */
import fs from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import * as tar from "tar";
import { pageIndexFile, unpackPages } from "./page-pack.ts";
import { createReleaseStore, releaseLayers } from "./releases.ts";

const pack = (cwd: string) => Readable.from(tar.c({ gzip: true, cwd, portable: true }, ["."]), { objectMode: false });

export async function releaseArchive(root: string): Promise<Readable> {
  const layers = releaseLayers(root);
  if (layers.length === 1 && !fs.existsSync(path.join(root, pageIndexFile))) return pack(root);
  const store = createReleaseStore(path.dirname(root));
  const merged = store.stage();
  try {
    // The first layer that has a page gives all of its stored forms.
    for (const layer of layers) await store.carryForward(merged, path.basename(layer));
    // A full release's product pages, a file each unless a later layer rewrote them.
    await unpackPages(merged.dir);
  } catch (error) {
    await store.discard(merged);
    throw error;
  }
  const archive = pack(merged.dir);
  archive.once("close", () => void store.discard(merged).catch(() => undefined));
  return archive;
}
