import fs from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { defineMachineRoute } from "../../../context.ts";
import { notFound } from "../../../http/http.ts";
import { releaseArchive } from "../../../site-build/release-archive.ts";

/**
 * The served release as a gzip tarball (its files at the archive's root), named after the
 * release: what the nightly workflow keeps as its artifact. 404 while no release is built.
 */
export default defineMachineRoute(async (event, { machine }) => {
  const root = machine.releaseRoot();
  if (root === null || !fs.existsSync(root)) throw notFound("No release is built yet");
  const headers = {
    "content-type": "application/gzip",
    "content-disposition": `attachment; filename="pawprice-site-${path.basename(root)}.tar.gz"`,
    "cache-control": "no-store",
  };
  if (event.req.method === "HEAD") return new Response(null, { headers });
  const archive = await releaseArchive(root);
  return new Response(Readable.toWeb(archive) as ReadableStream<Uint8Array>, { headers });
});
