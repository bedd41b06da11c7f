import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import { HTTPError } from "h3";
import { z } from "zod";
import { defineAdminRoute } from "../../../../context.ts";
import { badRequest, notFound, parseQuery } from "../../../../lib/http.ts";
import { editableSource, importError } from "../../../../lib/feed-source-routes.ts";
import { sourceView, uploadPath } from "../../../../feed-imports.ts";
import { feedSourceKey, listRuns, setFeedSourceFile } from "../../../../../data/db/feed-sources.ts";
import { FeedRefused, sniffFeed } from "../../../../../data/feeds/read-feed.ts";

const uploadQuery = z.object({
  name: z
    .string({ error: "name (the file's name) is required" })
    .trim()
    .min(1, "name (the file's name) is required")
    .max(200, "name must be at most 200 characters")
    .refine((value) => !/[\u0000-\u001f\u007f/\\]/.test(value), "name must be a file name without folders or control characters"),
});

const tooLarge = (maxBytes: number) => new HTTPError({ status: 413, message: `The file is larger than the upload limit of ${maxBytes.toLocaleString("en-GB")} bytes` });

/**
 * Uploads a file source's feed: the request body is the file (CSV, TSV, XML or gzip), streamed to
 * the uploads folder, never held in memory, at most FEED_UPLOAD_MAX_BYTES (413 past it, nothing
 * kept). A file that is not a feed is refused (422) and the source keeps its previous file.
 * 200 `{ source, detected }`: the source and what its file was detected to be.
 */
export default defineAdminRoute(async (event, { db, admin }) => {
  const source = editableSource(event, db);
  if (source.kind !== "file") throw new HTTPError({ status: 409, message: `"${source.name}" downloads its feed from a URL; it takes no upload` });
  const { name } = parseQuery(event, uploadQuery);
  const { uploadsDir, uploadMaxBytes } = admin.feedImports;
  if (Number(event.req.headers.get("content-length")) > uploadMaxBytes) throw tooLarge(uploadMaxBytes);
  const body = event.req.body;
  if (!body) throw badRequest("Send the feed file as the request body");

  fs.mkdirSync(uploadsDir, { recursive: true });
  const temp = path.join(uploadsDir, `.upload-${randomUUID()}`);
  let bytes = 0;
  try {
    await pipeline(
      Readable.fromWeb(body as WebReadableStream<Uint8Array>),
      async function* (chunks: AsyncIterable<Buffer>) {
        for await (const chunk of chunks) {
          bytes += chunk.length;
          if (bytes > uploadMaxBytes) throw tooLarge(uploadMaxBytes);
          yield chunk;
        }
      },
      fs.createWriteStream(temp, { flags: "wx" }),
    );
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
    return { source: sourceView(saved.source, lastRun, admin.feedImports.nextRun(source.id)), detected };
  } catch (error) {
    fs.rmSync(temp, { force: true });
    if (error instanceof HTTPError) throw error;
    if (error instanceof FeedRefused) throw importError(error);
    throw new HTTPError({ status: 400, message: "The file was not received completely", cause: error });
  }
});
