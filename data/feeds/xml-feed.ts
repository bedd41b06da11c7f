/**
 * An XML product feed (RSS 2.0 <rss><channel><item> or Atom <feed><entry>, Google's g: namespace
 * or none) as a stream of records, read with a streaming SAX parser (htmlparser2 in XML mode):
 * the file is never held, only the item being read.
 *
 * Bounded: entities are the five of XML and numeric references only; a DTD's entities are never
 * expanded (a "billion laughs" document reads as the literal "&lol9;"); an item's text is capped
 * (a bigger item is one error and the reading goes on); a tag, comment or CDATA section that
 * never ends is refused before it fills the memory.
 */
import { Parser } from "htmlparser2";
import { shippingEntry } from "../domain/feed-layouts.ts";
import { FeedRefused, peek, utf8Bom } from "./feed-input.ts";

/** The most text one item may hold; a bigger one is reported and skipped. */
export const maxItemChars = 1024 * 1024;
/** The most text the parser may hold for one unfinished token (tag, comment, CDATA section). */
const maxTokenChars = 8 * 1024 * 1024;

const googleNamespaces = new Set(["http://base.google.com/ns/1.0", "http://base.google.com/cns/1.0"]);
/** Elements that start an HTML page (a page without <html> starts with one of the others). */
const htmlRoots = new Set(["html", "head", "body", "title", "meta", "link", "script", "style", "div", "p", "h1", "table", "form"]);
/** Elements of an item that group sub-elements; each becomes one text (see shippingEntry). */
const groupFields = new Set(["shipping"]);

export type XmlEvent =
  /** The root element as written, and the element that holds each product. */
  | { kind: "root"; root: string; itemName: "item" | "entry"; declaresGoogle: boolean }
  /** An item's fields by element name (lower case, prefix dropped), with the line its tag starts on. */
  | { kind: "record"; line: number; fields: Record<string, string> }
  | { kind: "error"; line: number; error: string };

/** Counts "\n" in text[from, to). */
function newlines(text: string, from: number, to: number): number {
  let count = 0;
  for (let at = text.indexOf("\n", from); at !== -1 && at < to; at = text.indexOf("\n", at + 1)) count++;
  return count;
}

/** The encoding an XML declaration names, else UTF-8. */
function declaredEncoding(head: string): string {
  const declared = /^<\?xml[^>]*\bencoding\s*=\s*["']([A-Za-z0-9._-]+)["']/.exec(head)?.[1];
  return declared ?? "utf-8";
}

/**
 * The records of an XML feed. Throws FeedRefused (before any record) for an HTML page (even after
 * an XML declaration, comments or a doctype), and for an XML document whose root is not <rss> or
 * <feed>, naming its root.
 */
export async function* xmlRecords(chunks: AsyncGenerator<Buffer>): AsyncGenerator<XmlEvent, void, undefined> {
  const opening = await peek(chunks[Symbol.asyncIterator](), (head) => head.length >= 256 || head.includes(0x3e));
  const headText = opening.head.toString("latin1").replace(/^\xef\xbb\xbf/, "").trimStart();
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(declaredEncoding(headText));
  } catch {
    throw new FeedRefused(`This XML feed is in an encoding this reader does not know (${declaredEncoding(headText)}); save it as UTF-8`);
  }

  const events: XmlEvent[] = [];
  let refusal: string | null = null;
  let root: string | null = null;
  let itemName = "";
  const googlePrefixes = new Set<string>();
  let depth = 0;
  // The item being read.
  let itemDepth = -1;
  let itemLine = 0;
  let itemChars = 0;
  let fields: Record<string, string> = {};
  let fromGoogle = new Set<string>();
  let field: string | null = null;
  let fieldIsGoogle = false;
  let text = "";
  let href = "";
  let group: Record<string, string> | null = null;
  let subField: string | null = null;
  let subText = "";

  // Lines: text before the current chunk has been counted; the previous chunk is kept to look back
  // into for a tag that started in it.
  let chunk = "";
  let chunkStart = 0;
  let linesBeforeChunk = 0;
  let previous = "";
  let scanAt = 0;
  let scanLines = 0;
  const lineAt = (index: number): number => {
    if (index < chunkStart) {
      const from = Math.max(0, index - (chunkStart - previous.length));
      return linesBeforeChunk - newlines(previous, from, previous.length) + 1;
    }
    const at = index - chunkStart;
    if (at < scanAt) {
      scanAt = 0;
      scanLines = 0;
    }
    scanLines += newlines(chunk, scanAt, at);
    scanAt = at;
    return linesBeforeChunk + scanLines + 1;
  };

  /** The field name of an element in an item: its local name when unprefixed or Google's, else null. */
  const fieldName = (name: string): { name: string; google: boolean } | null => {
    const colon = name.indexOf(":");
    if (colon === -1) return { name: name.toLowerCase(), google: false };
    return googlePrefixes.has(name.slice(0, colon)) ? { name: name.slice(colon + 1).toLowerCase(), google: true } : null;
  };

  const parser = new Parser(
    {
      onprocessinginstruction(name, data) {
        if (root === null && name.toLowerCase() === "!doctype" && /^!doctype\s+html\b/i.test(data)) refusal ??= "This file is not a product feed: it looks like an HTML page (an error or login page?)";
      },
      onopentag(name, attributes) {
        depth++;
        if (root === null) {
          root = name;
          const local = name.slice(name.indexOf(":") + 1).toLowerCase();
          if (htmlRoots.has(local)) {
            refusal ??= "This file is not a product feed: it looks like an HTML page (an error or login page?)";
            return;
          }
          if (local !== "rss" && local !== "feed") {
            refusal ??= `This file is not a product feed this site can read: it is an XML document whose root is <${name}> (a product feed is RSS 2.0 <rss> or Atom <feed>, as Google Merchant Center takes)`;
            return;
          }
          for (const [attribute, value] of Object.entries(attributes)) {
            if (attribute.startsWith("xmlns:") && googleNamespaces.has(value.trim())) googlePrefixes.add(attribute.slice(6));
          }
          itemName = local === "rss" ? "item" : "entry";
          events.push({ kind: "root", root: name, itemName: itemName as "item" | "entry", declaresGoogle: googlePrefixes.size > 0 });
          return;
        }
        if (itemDepth === -1) {
          if (name.slice(name.indexOf(":") + 1).toLowerCase() === itemName && fieldName(name) !== null) {
            itemDepth = depth;
            itemLine = lineAt(parser.startIndex);
            itemChars = 0;
            fields = {};
            fromGoogle = new Set();
          }
          return;
        }
        if (depth === itemDepth + 1) {
          const named = fieldName(name);
          field = named?.name ?? null;
          fieldIsGoogle = named?.google ?? false;
          text = "";
          href = field === "link" ? (attributes.href ?? "") : "";
          // Atom gives several links; the page is rel="alternate" (or no rel).
          if (field === "link" && attributes.rel !== undefined && attributes.rel !== "alternate") href = "";
          group = field !== null && groupFields.has(field) ? {} : null;
        } else if (depth === itemDepth + 2 && group !== null) {
          subField = fieldName(name)?.name ?? null;
          subText = "";
        }
      },
      ontext(data) {
        if (itemDepth === -1) return;
        itemChars += data.length;
        if (itemChars > maxItemChars) return;
        if (subField !== null) subText += data;
        else if (field !== null && group === null) text += data;
      },
      onclosetag() {
        if (itemDepth !== -1) {
          if (depth === itemDepth + 2 && group !== null && subField !== null) {
            group[subField] = subText.trim();
            subField = null;
          } else if (depth === itemDepth + 1 && field !== null) {
            const value = group !== null ? shippingEntry(group) : text.trim() || href.trim();
            if (group !== null) fields[field] = fields[field] ? `${fields[field]},${value}` : value;
            else if (value !== "" && (fields[field] === undefined || (fieldIsGoogle && !fromGoogle.has(field)))) {
              // A Google element wins over a plain one of the same name (Atom's <title> and <g:title>).
              fields[field] = value;
              if (fieldIsGoogle) fromGoogle.add(field);
            }
            field = null;
            group = null;
          } else if (depth === itemDepth) {
            if (itemChars > maxItemChars) {
              events.push({ kind: "error", line: itemLine, error: `line ${itemLine}: an item with more than ${maxItemChars / 1024 / 1024} MiB of text (not imported)` });
            } else {
              events.push({ kind: "record", line: itemLine, fields });
            }
            itemDepth = -1;
            field = null;
            group = null;
          }
        }
        depth--;
      },
    },
    { xmlMode: true, decodeEntities: true },
  );

  let written = 0;
  const write = (part: string) => {
    previous = chunk;
    linesBeforeChunk += scanLines + newlines(chunk, scanAt, chunk.length);
    chunkStart = written;
    chunk = part;
    scanAt = 0;
    scanLines = 0;
    written += part.length;
    parser.write(part);
    if (refusal !== null) throw new FeedRefused(refusal);
    if (written - (parser.endIndex + 1) > maxTokenChars) {
      throw new FeedRefused(`This XML feed has a tag, comment or CDATA section longer than ${maxTokenChars / 1024 / 1024} MiB that does not end (line ${lineAt(parser.endIndex + 1)}); it cannot be read`);
    }
  };

  let first = true;
  for await (const bytes of opening.chunks) {
    const body = first && bytes.subarray(0, 3).equals(utf8Bom) ? bytes.subarray(3) : bytes;
    first = false;
    write(decoder.decode(body, { stream: true }));
    yield* events.splice(0);
  }
  write(decoder.decode());
  parser.end();
  if (refusal !== null) throw new FeedRefused(refusal);
  if (root === null) throw new FeedRefused("This file is not a product feed: it looks like XML but has no element at all");
  yield* events.splice(0);
}
