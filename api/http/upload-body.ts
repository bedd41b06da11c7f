/**
 * A request body written to a file as it arrives, never held in memory, at most `maxBytes`.
 * Past the limit the answer is 413 at once: the request stops being read (it is paused, not
 * destroyed, so the 413 still reaches the client) and the connection is closed after the answer,
 * so the rest of an oversized upload is neither stored nor read.
 */
import fs from "node:fs";
import type { IncomingMessage } from "node:http";
import { Readable } from "node:stream";
import { finished } from "node:stream/promises";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import { HTTPError, type H3Event } from "h3";

export const uploadTooLarge = (maxBytes: number) =>
  new HTTPError({ status: 413, message: `The file is larger than the upload limit of ${maxBytes.toLocaleString("en-GB")} bytes`, headers: { connection: "close" } });

/**
 * Writes the body to `file` (created, must not exist); the number of bytes, once the file is
 * written and closed. The caller deletes the file when this throws.
 */
export async function saveRequestBody(event: H3Event, file: string, maxBytes: number): Promise<number> {
  if (Number(event.req.headers.get("content-length")) > maxBytes) throw uploadTooLarge(maxBytes);
  // Node's own request when there is one: a web stream over it, once cancelled, fails on the data still arriving.
  const nodeRequest = event.runtime?.node?.req as IncomingMessage | undefined;
  const body = nodeRequest ?? (event.req.body ? Readable.fromWeb(event.req.body as WebReadableStream<Uint8Array>) : null);
  if (!body) throw new HTTPError({ status: 400, message: "Send the feed file as the request body" });
  const out = fs.createWriteStream(file, { flags: "wx" });
  let bytes = 0;
  try {
    await new Promise<void>((resolve, reject) => {
      const stop = (error: Error) => {
        body.off("data", onData);
        body.off("end", onEnd);
        body.off("error", onError);
        body.pause();
        reject(error);
      };
      const onData = (chunk: Buffer) => {
        bytes += chunk.length;
        if (bytes > maxBytes) return stop(uploadTooLarge(maxBytes));
        if (!out.write(chunk)) {
          body.pause();
          out.once("drain", () => body.resume());
        }
      };
      const onEnd = () => resolve();
      const onError = (error: Error) => stop(new HTTPError({ status: 400, message: "The file was not received completely", cause: error }));
      out.on("error", (error) => stop(error));
      body.on("data", onData);
      body.once("end", onEnd);
      body.once("error", onError);
      body.resume();
    });
  } catch (error) {
    out.end();
    await finished(out).catch(() => undefined);
    throw error;
  }
  // Every byte received: the file is whole only once the stream has flushed and closed without an
  // error (a file that could not be made, a full disk), which can come after the body's end.
  out.end();
  await finished(out);
  return bytes;
}
