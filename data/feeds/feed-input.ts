/**
 * The bytes of a feed, before any layout: a stream or a file path, gunzipped when its first bytes
 * are gzip's (whatever the file is called), capped at a number of decompressed bytes, and the
 * first look at what kind of file it is (ZIP, UTF-16, binary, JSON, empty). Nothing here holds
 * more than the chunk being read and the head being looked at.
 */
import { Readable, pipeline } from "node:stream";
import { createGunzip } from "node:zlib";

/** The file is not a product feed this site can read; the message says why, for the person who set it up. */
export class FeedRefused extends Error {
  override name = "FeedRefused";
}

/** The feed is larger than the cap on decompressed bytes; the reading stopped there. */
export class FeedTooLarge extends FeedRefused {
  override name = "FeedTooLarge";
}

/** Default cap on a feed's decompressed bytes: far above the largest real feed, far below a gzip bomb. */
export const defaultMaxFeedBytes = 2 * 1024 ** 3;

export async function* bytesOf(stream: NodeJS.ReadableStream): AsyncGenerator<Buffer> {
  for await (const chunk of stream) yield typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer);
}

/**
 * Reads chunks until `enough` holds for what was read or the source ends. `chunks` streams it all:
 * the head as its first chunk, then the rest as it comes.
 */
export async function peek(source: AsyncIterator<Buffer>, enough: (head: Buffer) => boolean): Promise<{ head: Buffer; chunks: AsyncGenerator<Buffer> }> {
  const parts: Buffer[] = [];
  let head: Buffer = Buffer.alloc(0);
  let done = false;
  while (!enough(head)) {
    const next = await source.next();
    if (next.done === true) {
      done = true;
      break;
    }
    parts.push(next.value);
    head = parts.length === 1 ? next.value : Buffer.concat(parts);
  }
  async function* chunks(): AsyncGenerator<Buffer> {
    if (head.length > 0) yield head;
    if (done) return;
    for (let next = await source.next(); next.done !== true; next = await source.next()) yield next.value;
  }
  return { head, chunks: chunks() };
}

/** Streams `chunks` through `transform`; an error anywhere surfaces when reading the result. */
export function through<T extends NodeJS.ReadWriteStream>(chunks: AsyncIterable<Buffer>, transform: T): T {
  pipeline(Readable.from(chunks), transform, () => {
    // pipeline destroys `transform` with the error, so the reader sees it; nothing to do here.
  });
  return transform;
}

function sizeInWords(bytes: number): string {
  return bytes >= 1024 ** 3 && bytes % 1024 ** 3 === 0 ? `${bytes / 1024 ** 3} GiB` : `${Math.round(bytes / 1024 / 1024)} MiB`;
}

/** The chunks, failing with FeedTooLarge as soon as more than `maxBytes` have come. */
async function* capped(chunks: AsyncIterable<Buffer>, maxBytes: number): AsyncGenerator<Buffer> {
  let total = 0;
  for await (const chunk of chunks) {
    total += chunk.length;
    if (total > maxBytes) {
      throw new FeedTooLarge(`The feed is larger than ${sizeInWords(maxBytes)} once decompressed; reading stopped there (a gzip bomb, or a feed to split)`);
    }
    yield chunk;
  }
}

/**
 * The decompressed bytes of `stream`, at most `maxBytes` of them. Every stream made is put in
 * `created` for the caller to destroy when it stops.
 */
export async function feedBytes(stream: NodeJS.ReadableStream, maxBytes: number, created: { destroy(): void }[]): Promise<AsyncGenerator<Buffer>> {
  const start = await peek(bytesOf(stream)[Symbol.asyncIterator](), (head) => head.length >= 2);
  let bytes: AsyncIterable<Buffer> = start.chunks;
  if (start.head[0] === 0x1f && start.head[1] === 0x8b) {
    const gunzip = createGunzip();
    created.push(gunzip);
    bytes = through(bytes, gunzip);
  }
  return capped(bytes, maxBytes);
}

export const utf8Bom = Buffer.from([0xef, 0xbb, 0xbf]);

/** How far to look for the first thing that is not blank before calling the file empty. */
export const maxLeadingBlankBytes = 1024 * 1024;

/** The head without a UTF-8 byte-order mark and leading blank space, as Latin-1 (one character a byte). */
export function headText(head: Buffer): string {
  return head.subarray(head.subarray(0, 3).equals(utf8Bom) ? 3 : 0).toString("latin1").trimStart();
}

/**
 * Why the first bytes cannot be a feed in any layout, or null when they might be (a table or XML).
 * The messages name what the file looks like.
 */
export function notAFeed(head: Buffer): string | null {
  if (head.subarray(0, 4).equals(Buffer.from("PK\x03\x04", "latin1"))) return "This file is not a product feed: it looks like a ZIP archive (unzip it first)";
  if ((head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0xfe && head[1] === 0xff)) {
    return "This file is not a product feed this reader can use: it is UTF-16 text (save it as UTF-8)";
  }
  const text = headText(head);
  if (text === "") return head.length >= maxLeadingBlankBytes ? "This file is not a product feed: it starts with over 1 MiB of blank space" : "The feed is empty";
  if (head.includes(0)) return "This file is not a product feed: it looks like a binary file";
  if (text.startsWith("{") || text.startsWith("[")) {
    const excerpt = Buffer.from(text.replace(/\s+/g, " ").slice(0, 120), "latin1").toString("utf8");
    return `This file is not a product feed: it looks like a JSON document (${excerpt})`;
  }
  return null;
}
