/**
 * A release as one gzip tarball, its files at the archive's root (made with the `tar` package).
 * A full release is archived as it is. A fast release holds only the pages its build rewrote and
 * is served over its base (releases.ts), so its layers are first laid into one folder of
 * hard links (no file is copied), deleted once the archive has been read or abandoned.
 */
import path from "node:path";
import { Readable } from "node:stream";
import * as tar from "tar";
import { createReleaseStore, releaseLayers } from "./releases.ts";

const pack = (cwd: string) => Readable.from(tar.c({ gzip: true, cwd, portable: true }, ["."]), { objectMode: false });

export async function releaseArchive(root: string): Promise<Readable> {
  const layers = releaseLayers(root);
  if (layers.length === 1) return pack(root);
  const store = createReleaseStore(path.dirname(root));
  const merged = store.stage();
  try {
    // The first layer that has a page gives all of its stored forms.
    for (const layer of layers) await store.carryForward(merged, path.basename(layer));
  } catch (error) {
    await store.discard(merged);
    throw error;
  }
  const archive = pack(merged.dir);
  archive.once("close", () => void store.discard(merged).catch(() => undefined));
  return archive;
}
