/**
 * The page's markup for the offer extractor, read with bounded work whatever the page holds:
 * the HTML is cut to a size and a nesting depth before it is parsed (the parser's cost grows
 * with the square of the nesting), and every walk over the tree is iterative, so no page can
 * overflow the stack or keep the extractor busy for long.
 */
import { isTag, isText, type AnyNode, type Document, type Element } from "domhandler";
import { parseDocument } from "htmlparser2";
import { parsePriceText, type PriceText } from "./price-text.ts";

/** Characters of HTML read: more than the page fetch ever gives (2 MB), less than a hostile page can. */
export const MAX_HTML_CHARS = 4_000_000;
/** Open elements nested deeper than this are not read: real product pages nest a few dozen deep. */
export const MAX_NESTING = 400;
/** Characters of one element's text read for a price or a name. */
const MAX_ELEMENT_TEXT = 2_000;

/** Elements whose end tag the parser supplies, so an unclosed one does not nest the next. */
const voidOrImplied = new Set([
  "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr", "param",
  "p", "li", "option", "optgroup", "dt", "dd", "tr", "td", "th", "tbody", "thead", "tfoot", "colgroup", "rb", "rt", "rp",
]);
const rawTextTags = new Set(["script", "style", "textarea", "title", "template", "noscript", "xmp", "iframe"]);

export interface ParsedPage {
  document: Document;
  /** Why part of the page was not read ("page cut at 4,000,000 characters"), or null. */
  cut: string | null;
}

/**
 * Parses the page after cutting it where it grows past MAX_HTML_CHARS or nests past MAX_NESTING
 * open elements. Nesting is counted on the tags as written (end tags the parser would imply for
 * p, li, td… are not counted), skipping over script and style bodies.
 */
export function parsePage(html: string): ParsedPage {
  let text = html;
  let cut: string | null = null;
  if (text.length > MAX_HTML_CHARS) {
    text = text.slice(0, MAX_HTML_CHARS);
    cut = `page cut at ${MAX_HTML_CHARS.toLocaleString("en-GB")} characters`;
  }
  const deepAt = tooDeepAt(text);
  if (deepAt !== null) {
    text = text.slice(0, deepAt);
    cut = `page cut where its elements nest deeper than ${MAX_NESTING}`;
  }
  return { document: parseDocument(text), cut };
}

/** Where the written tags first nest deeper than MAX_NESTING, or null. */
function tooDeepAt(html: string): number | null {
  const tag = /<(\/?)([a-zA-Z][\w:-]*)[^>]*?(\/?)>/g;
  let depth = 0;
  for (let match = tag.exec(html); match !== null; match = tag.exec(html)) {
    const [whole, closing, rawName, selfClosing] = match;
    const name = rawName!.toLowerCase();
    if (closing) {
      if (!voidOrImplied.has(name)) depth = Math.max(0, depth - 1);
      continue;
    }
    if (rawTextTags.has(name)) {
      const close = new RegExp(`</${name}`, "gi");
      close.lastIndex = match.index + whole.length;
      const end = close.exec(html);
      if (end === null) return null;
      tag.lastIndex = end.index;
      continue;
    }
    if (selfClosing || voidOrImplied.has(name)) continue;
    depth += 1;
    if (depth > MAX_NESTING) return match.index;
  }
  return null;
}

/** Every element below `roots`, in document order, without recursion. */
export function* elementsIn(roots: readonly AnyNode[]): Generator<Element> {
  const stack: AnyNode[] = [...roots].reverse();
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (!isTag(node)) continue;
    yield node;
    for (let index = node.children.length - 1; index >= 0; index--) stack.push(node.children[index]!);
  }
}

/** Elements below `roots` passing `test`, in document order, at most `limit`. */
export function findElements(roots: readonly AnyNode[], test: (element: Element) => boolean, limit = Number.POSITIVE_INFINITY): Element[] {
  const found: Element[] = [];
  for (const element of elementsIn(roots)) {
    if (test(element)) {
      found.push(element);
      if (found.length >= limit) break;
    }
  }
  return found;
}

export const words = (value: string | undefined): string[] => value?.match(/\S+/g) ?? [];

const hiddenTags = new Set(["script", "style", "template", "noscript"]);

/** Class-name words that mark a price as old or recommended: "was-price", "rrp", "price--strike". */
const crossedOutClassWords = new Set(["was", "rrp", "msrp", "strike", "strikethrough", "old", "crossed", "previous", "standardprice", "regular", "original", "before"]);
const crossedOutTags = new Set(["del", "s", "strike"]);

export function crossedOutElement(element: Element): boolean {
  if (crossedOutTags.has(element.name) || element.attribs["data-a-strike"] === "true") return true;
  return words(element.attribs.class).some((name) => name.toLowerCase().split(/[-_]/).some((word) => crossedOutClassWords.has(word)));
}

/**
 * A price element crossed out by its own markup or by one of its three nearest ancestors:
 * <del>, <s>, <strike>, a class word such as "was", "previous" or "rrp", or Amazon's
 * data-a-strike="true". Ancestors further out are layout, whose class names say nothing about
 * the price.
 */
export function isCrossedOut(element: Element): boolean {
  let node: AnyNode | null = element;
  for (let depth = 0; depth <= 3 && node !== null && isTag(node); depth++, node = node.parent) {
    if (crossedOutElement(node)) return true;
  }
  return false;
}

/** Hidden by its own markup: the `hidden` attribute, aria-hidden, or a class saying so. */
function hiddenElement(element: Element): boolean {
  if (hiddenTags.has(element.name) || element.attribs.hidden !== undefined || element.attribs["aria-hidden"] === "true") return true;
  return /(?:^|\s)(?:h-hidden|hidden|d-none|visually-hidden|sr-only)(?:\s|$)/.test(element.attribs.class ?? "") && !/a-offscreen/.test(element.attribs.class ?? "");
}

/**
 * An element's text as a shopper reads it: no scripts, no crossed-out prices, no hidden
 * elements, cut at MAX_ELEMENT_TEXT characters. Amazon's screen-reader price (a-offscreen) is read.
 */
export function visibleText(element: Element, limit = MAX_ELEMENT_TEXT): string {
  let text = "";
  const stack: AnyNode[] = [...element.children].reverse();
  while (stack.length > 0 && text.length < limit) {
    const node = stack.pop()!;
    if (isText(node)) text += node.data;
    else if (isTag(node) && !crossedOutElement(node) && !hiddenElement(node)) {
      if (node.name === "br") text += " ";
      if (isSuperscriptPence(node, text)) {
        text = `${text.trimEnd()}.${visibleText(node, 80).trim()}`;
        continue;
      }
      for (let index = node.children.length - 1; index >= 0; index--) stack.push(node.children[index]!);
    }
  }
  return text.slice(0, limit);
}

/**
 * Pence printed raised after the pounds ("34<sup>99</sup>", Amazon's price-info-superscript):
 * two digits in a <sup> or a superscript/fraction element right after digits with no decimal mark.
 */
function isSuperscriptPence(element: Element, before: string): boolean {
  if (element.name !== "sup" && !/superscript|fraction/i.test(element.attribs.class ?? "")) return false;
  return /\d\s*$/.test(before) && !/[.,]\d*\s*$/.test(before) && /^\s*\d{2}\s*$/.test(visibleText(element, 80));
}

/** All text below an element, scripts included (for script bodies), cut at `limit`. */
export function rawText(element: Element, limit: number): string {
  let text = "";
  for (const child of element.children) {
    if (isText(child)) text += child.data;
    if (text.length > limit) return text.slice(0, limit);
  }
  return text;
}

export function isHidden(node: AnyNode): boolean {
  for (let parent: AnyNode | null = node; parent !== null; parent = parent.parent) {
    if (isTag(parent) && hiddenElement(parent)) return true;
  }
  return false;
}

/** A price printed in an element, with the element, when the element's text reads as one price. */
export interface PrintedPrice {
  price: PriceText;
  element: Element;
  text: string;
}

/**
 * The prices printed below `root`, in document order: each from the innermost element whose
 * text (at most 80 characters) reads as a price with a currency mark; crossed-out and hidden
 * elements are skipped.
 */
export function printedPrices(root: Element, limit = 40): PrintedPrice[] {
  const prices: PrintedPrice[] = [];
  const stack: Element[] = [root];
  while (stack.length > 0 && prices.length < limit) {
    const element = stack.pop()!;
    if (crossedOutElement(element) || hiddenElement(element)) continue;
    const text = visibleText(element, 81).replace(/\s+/g, " ").trim();
    if (text.length === 0 || !/\d/.test(text)) continue;
    const children = element.children.filter(isTag);
    const innerHolds = text.length <= 80 && children.some((child) => {
      const inner = visibleText(child, 81);
      return /\d/.test(inner) && parsePriceText(inner)?.currency != null;
    });
    if (text.length <= 80 && !innerHolds) {
      const price = printedPrice(text);
      if (price !== null && price.currency !== null) {
        prices.push({ price, element, text });
        continue;
      }
    }
    for (let index = children.length - 1; index >= 0; index--) stack.push(children[index]!);
  }
  return prices;
}

/** Text beside an amount that makes it a charge, a threshold or a saving, not the item's price. */
const notItemPrice = /deliver|postage|shipping|p&p|spend|orders? over|\bover\b|\bsave\b|saving|\boff\b|\bper\s|\/\s*(?:\d+\s*)?(?:kg|g|ml|l|litre|lb|oz)\b|voucher|coupon|reward|points|finance|per month|\/mo\b/i;

/**
 * The price printed in an element's text: not a delivery charge, a free-delivery threshold, a
 * saving or a unit price. An amount "per unit" or "/each" is the price of the one item sold.
 */
function printedPrice(text: string): PriceText | null {
  if (notItemPrice.test(text)) return null;
  return parsePriceText(text) ?? parsePriceText(text.replace(/\s*(?:\/|per)\s*(?:unit|each|ea|item)\b\.?/gi, ""));
}

/** Listings of other products: related, upsell and cross-sell blocks, carousels, tiles. */
const listingClass = /(?:^|[\s_-])(?:related|upsell|crosssell|cross-sell|product-items|products-grid|product-tile|carousel|recommend|recently|similar|tile|slider|slick-slide|swiper-slide)(?:$|[\s_-])/i;

export function inListing(element: Element): boolean {
  for (let node = element.parent; node !== null && isTag(node); node = node.parent) {
    if (listingClass.test(node.attribs.class ?? "") || listingClass.test(node.attribs.id ?? "")) return true;
  }
  return false;
}

/** Whether a "£" shows in the page's visible text. */
export function showsPoundSign(document: Document): boolean {
  const stack: AnyNode[] = [...document.children];
  let seen = 0;
  while (stack.length > 0 && seen < 200_000) {
    const node = stack.pop()!;
    seen += 1;
    if (isText(node)) {
      if (node.data.includes("£")) return true;
    } else if (isTag(node) && !hiddenTags.has(node.name)) {
      for (const child of node.children) stack.push(child);
    }
  }
  return false;
}

// ---------------------------------------------------------------------------------------------
// Selectors of the retailer registry's hints

/**
 * One step of a descendant chain: `#id`, `.class`, `[attribute="value"]` or
 * `[attribute*="part"]` (the value contains it, for CSS-module class names such as
 * `product-price_price__hswU0`). `word` steps match one word of a space-separated attribute.
 */
interface SelectorStep {
  attribute: string;
  value: string;
  match: "exact" | "word" | "contains";
}
export type Selector = SelectorStep[];

/** Parses selectors; a malformed one throws (the registry test parses every entry's). */
export function parseSelectors(list: readonly string[]): Selector[] {
  return list.map((selector) =>
    selector.split(" ").map((step): SelectorStep => {
      if (step.startsWith("#")) return { attribute: "id", value: step.slice(1), match: "exact" };
      if (step.startsWith(".")) return { attribute: "class", value: step.slice(1), match: "word" };
      const [, attribute, operator, value] = /^\[([\w-]+)(\*?)="([^"]*)"\]$/.exec(step) ?? [];
      if (attribute === undefined || value === undefined) throw new Error(`Unsupported selector step "${step}" in "${selector}"`);
      return { attribute, value, match: operator === "*" ? "contains" : "exact" };
    }),
  );
}

function matchesStep(element: Element, step: SelectorStep): boolean {
  const value = element.attribs[step.attribute];
  if (value === undefined) return false;
  if (step.match === "word") return words(value).includes(step.value);
  return step.match === "contains" ? value.includes(step.value) : value === step.value;
}

/** Elements matching a descendant chain ("#core .a-price .a-offscreen"), in document order. */
export function select(document: Document, selector: Selector, limit = 50): Element[] {
  const target = selector.at(-1)!;
  const ancestors = selector.slice(0, -1);
  return findElements(
    document.children,
    (element) => {
      if (!matchesStep(element, target)) return false;
      let pending = ancestors.length - 1;
      for (let node = element.parent; node !== null && isTag(node) && pending >= 0; node = node.parent) {
        if (matchesStep(node, ancestors[pending]!)) pending--;
      }
      return pending < 0;
    },
    limit,
  );
}
