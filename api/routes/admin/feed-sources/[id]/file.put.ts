import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { HTTPError } from "h3";
import { z } from "zod";
import { defineAdminRoute } from "../../../../context.ts";
import type { FeedFileUploaded } from "../../../../http/responses.ts";
import { badRequest, notFound } from "../../../../http/http.ts";
import { editableSource, importError, sourceRef } from "../../../../lib/feed-source-routes.ts";
import { saveRequestBody } from "../../../../http/upload-body.ts";
import { sourceView, uploadPath } from "../../../../feed-imports.ts";
import { feedSourceKey, listRuns, setFeedSourceFile } from "../../../../../data/db/feed-sources.ts";
import { sniffFeed } from "../../../../../data/feeds/read-feed.ts";

const uploadQuery = z.object({
  name: z
    .string({ error: "name (the file's name) is required" })
    .trim()
    .min(1, "name (the file's name) is required")
    .max(200, "name must be at most 200 characters")
    .refine((value) => !/[\u0000-\u001f\u007f/\\]/.test(value), "name must be a file name without folders or control characters"),
});

/**
 * Uploads a file source's feed: the request body is the file (CSV, TSV, XML or gzip), streamed to
 * the uploads folder, never held in memory, at most FEED_UPLOAD_MAX_BYTES (413 past it, nothing
 * kept). A file that is not a feed is refused (422) and the source keeps its previous file.
 * 200 `{ source, detected }`: the source and what its file was detected to be.
 */
export default defineAdminRoute({ params: { id: sourceRef }, query: uploadQuery }, async (event, { db, admin }, { params, query: { name } }) => {
  const source = editableSource(params.id, db);
  if (source.kind !== "file") throw new HTTPError({ status: 409, message: `"${source.name}" downloads its feed from a URL; it takes no upload` });
  const { uploadsDir, uploadMaxBytes } = admin.feedImports;
  fs.mkdirSync(uploadsDir, { recursive: true });
  const temp = path.join(uploadsDir, `.upload-${randomUUID()}`);
  try {
    const bytes = await saveRequestBody(event, temp, uploadMaxBytes);
    if (bytes === 0) throw badRequest("The file is empty");
    let detected;
    try {
      detected = await sniffFeed(temp);
    } catch (error) {
      throw importError(error);
    }
    const stored = `source-${source.id}-${randomUUID()}.feed`;
    fs.renameSync(temp, uploadPath(uploadsDir, stored));
    const saved = setFeedSourceFile(db, source.id, { fileName: name, storedFile: stored, fileBytes: bytes }, new Date());
    if (!saved) {
      fs.rmSync(uploadPath(uploadsDir, stored), { force: true });
      throw notFound("Feed source not found");
    }
    if (saved.replaced) fs.rmSync(uploadPath(uploadsDir, saved.replaced), { force: true });
    const lastRun = listRuns(db, feedSourceKey(source.id), 1)[0] ?? null;
    return { source: sourceView(saved.source, lastRun, admin.feedImports.nextRun(source.id)), detected } satisfies FeedFileUploaded;
  } catch (error) {
    // Nothing of a refused or failed upload is kept.
    fs.rmSync(temp, { force: true });
    throw error;
  }
});
