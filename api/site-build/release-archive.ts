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

/**
 * The gzip tarball of the folder `cwd`, as a stream; `finished` runs once the packer is done with
 * the folder. An archive abandoned half-read (a download cut off) packs nothing more: the entries
 * still to come are filtered out and the rest of the tarball is drained, so the packer never reads
 * a folder that `finished` deletes. A packer that fails is finished too (its error still reaches
 * the archive's reader).
 */
function pack(cwd: string, finished: () => void = () => {}): Readable {
  let abandoned = false;
  const packer = tar.c({ gzip: true, cwd, portable: true, filter: () => !abandoned }, ["."]);
  let done = false;
  const finish = () => {
    if (done) return;
    done = true;
    finished();
  };
  packer.once("end", finish);
  packer.on("error", finish);
  const archive = Readable.from(packer, { objectMode: false });
  archive.once("close", () => {
    if (done) return;
    abandoned = true;
    packer.resume();
  });
  return archive;
}

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
  return pack(merged.dir, () => void store.discard(merged).catch(() => undefined));
}
