/**
 * schema.org items read from JSON-LD, microdata and RDFa into one shape, so one reader of
 * products and offers serves all three. Type names are local and compared without case
 * ("product" is "Product"); property names are local and lower-cased ("offers").
 *
 * Bounded: a JSON-LD block over MAX_BLOCK_CHARS is skipped, values nested deeper than MAX_DEPTH
 * are not read, and at most MAX_ITEMS items and MAX_VALUES values per property are kept, so
 * a page of 20,000 nested arrays or 100,000 offers costs little and never overflows the stack.
 */
import { hasAttrib } from "domutils";
import { isTag, type Document, type Element } from "domhandler";
import { elementsIn, findElements, inListing, rawText, visibleText, words } from "./offer-extract-html.ts";

export interface Item {
  /** Local type names, lower-cased: "product", "offer". */
  types: string[];
  /** `@id`, `itemid` or RDFa `resource`: often the page's own URL. */
  id: string | null;
  props: Map<string, Value[]>;
  /** Where the item was read: "json-ld[1] @graph[2]", "microdata", "itemprop without itemscope". */
  path: string;
}
export type Value = string | Item;

const MAX_BLOCK_CHARS = 1_000_000;
const MAX_BLOCKS = 40;
const MAX_DEPTH = 16;
const MAX_ITEMS = 5_000;
export const MAX_VALUES = 200;

/** Counts items made while reading one page, so no page yields more than MAX_ITEMS. */
class Budget {
  items = 0;
  take(): boolean {
    this.items += 1;
    return this.items <= MAX_ITEMS;
  }
}

export function isType(item: Item, ...types: readonly string[]): boolean {
  return item.types.some((type) => types.includes(type));
}

export function itemValues(item: Item, ...names: string[]): Item[] {
  return names.flatMap((name) => item.props.get(name) ?? []).filter((value) => typeof value !== "string");
}

export function itemTexts(item: Item, name: string): string[] {
  return (item.props.get(name) ?? []).filter((value) => typeof value === "string");
}

export function firstText(item: Item, name: string): string | null {
  return itemTexts(item, name)[0] ?? null;
}

/** "https://schema.org/Product", "schema:Product" and "Product" all name "product". */
function localName(term: string): string {
  const slash = Math.max(term.lastIndexOf("/"), term.lastIndexOf("#"));
  const name = slash >= 0 ? term.slice(slash + 1) : term.slice(term.indexOf(":") + 1);
  return name.toLowerCase();
}

/** Property names compare lower-cased, so "Offers" and "offers" match; "offer" is a common slip. */
function propertyName(term: string): string {
  const name = localName(term);
  return name === "offer" ? "offers" : name;
}

function addValue(props: Map<string, Value[]>, name: string, value: Value): void {
  const values = props.get(name);
  if (!values) props.set(name, [value]);
  else if (values.length < MAX_VALUES) values.push(value);
}

// ---------------------------------------------------------------------------------------------
// JSON-LD

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The top-level nodes of every JSON-LD block (arrays and `@graph` opened up), as items. */
export function jsonLdItems(document: Document): Item[] {
  const scripts = findElements(document.children, (element) => element.name === "script" && isJsonLdType(element.attribs.type), MAX_BLOCKS);
  const nodes: { node: JsonObject; path: string }[] = [];
  scripts.forEach((script, index) => {
    const text = rawText(script, MAX_BLOCK_CHARS + 1);
    if (text.length > MAX_BLOCK_CHARS) return;
    nodes.push(...topLevelNodes(parseJsonLd(text), `json-ld[${index}]`));
  });
  const byId = new Map<string, JsonObject>();
  for (const { node } of nodes) {
    if (typeof node["@id"] === "string" && Object.keys(node).length > 1) byId.set(node["@id"], node);
  }
  const budget = new Budget();
  return nodes.map(({ node, path }) => jsonLdItem(node, path, { byId, budget, followReferences: true }, 0));
}

function isJsonLdType(type: string | undefined): boolean {
  return (type ?? "").split(";")[0]!.trim().toLowerCase() === "application/ld+json";
}

/** Parses a JSON-LD block; a broken one is repaired where that is safe, else skipped. */
function parseJsonLd(text: string): unknown {
  // Wrappers some templates put around the JSON (HTML comments, CDATA), trailing commas, and raw
  // line breaks inside strings.
  const repaired = () =>
    text
      .replace(/\/\*\s*<!\[CDATA\[\s*\*\/|\/\*\s*\]\]>\s*\*\/|\/\/\s*<!\[CDATA\[|\/\/\s*\]\]>|<!\[CDATA\[|\]\]>|<!--|-->/g, "")
      .replace(/,(\s*[}\]])/g, "$1")
      .replace(/[\u0000-\u001f]+/g, " ");
  for (const candidate of [() => text, repaired]) {
    try {
      return JSON.parse(candidate());
    } catch {
      // Try the repaired text, then give up on this block.
    }
  }
  return undefined;
}

/** Objects of a block, its arrays and `@graph`s opened up, to MAX_DEPTH levels, without recursion. */
function topLevelNodes(data: unknown, root: string): { node: JsonObject; path: string }[] {
  const found: { node: JsonObject; path: string }[] = [];
  const stack: { value: unknown; path: string; depth: number }[] = [{ value: data, path: root, depth: 0 }];
  while (stack.length > 0 && found.length < MAX_ITEMS) {
    const { value, path, depth } = stack.pop()!;
    if (depth > MAX_DEPTH) continue;
    if (Array.isArray(value)) {
      for (let index = Math.min(value.length, MAX_ITEMS) - 1; index >= 0; index--) stack.push({ value: value[index], path: `${path}[${index}]`, depth: depth + 1 });
    } else if (isObject(value)) {
      found.push({ node: value, path });
      if (value["@graph"] !== undefined) stack.push({ value: value["@graph"], path: `${path} @graph`, depth: depth + 1 });
    }
  }
  return found;
}

interface JsonLdContext {
  byId: Map<string, JsonObject>;
  budget: Budget;
  followReferences: boolean;
}

/**
 * A JSON-LD node as an item. A bare `{"@id": …}` reference to another top-level node of the page
 * is followed one level only (from a top-level node), so reference cycles cannot recur; any other
 * bare reference is an address, read as text (`"availability": {"@id": "…/InStock"}`). Nodes
 * deeper than MAX_DEPTH are not read.
 */
function jsonLdItem(node: JsonObject, path: string, context: JsonLdContext, depth: number): Item {
  const props = new Map<string, Value[]>();
  const item: Item = { types: [], id: typeof node["@id"] === "string" ? node["@id"] : null, props, path };
  item.types = [node["@type"]].flat().filter((type) => typeof type === "string").map(localName);
  if (depth >= MAX_DEPTH || !context.budget.take()) return item;
  for (const [key, raw] of Object.entries(node)) {
    if (key.startsWith("@")) continue;
    const name = propertyName(key);
    const values = Array.isArray(raw) ? raw.slice(0, MAX_VALUES) : [raw];
    values.forEach((value, index) => {
      const valuePath = Array.isArray(raw) ? `${path} ${name}[${index}]` : `${path} ${name}`;
      const read = jsonLdValue(value, valuePath, context, depth);
      if (read !== null) addValue(props, name, read);
    });
  }
  return item;
}

function jsonLdValue(value: unknown, path: string, context: JsonLdContext, depth: number): Value | null {
  if (typeof value === "string" || typeof value === "number") return String(value);
  if (!isObject(value)) return null;
  if ("@value" in value) return String(value["@value"]);
  const id = value["@id"];
  if (typeof id !== "string" || Object.keys(value).length > 1) return jsonLdItem(value, path, context, depth + 1);
  const referenced = context.followReferences ? context.byId.get(id) : undefined;
  return referenced ? jsonLdItem(referenced, path, { ...context, followReferences: false }, depth + 1) : id;
}

// ---------------------------------------------------------------------------------------------
// Microdata and RDFa: items scoped by elements

interface Vocabulary {
  name: "microdata" | "rdfa";
  isItem: (element: Element) => boolean;
  types: (element: Element) => string[];
  id: (element: Element) => string | null;
  propertyNames: (element: Element) => string[];
  /** Ids of elements outside the item that hold more of its properties (microdata `itemref`). */
  references: (element: Element) => string[];
}

export const microdata: Vocabulary = {
  name: "microdata",
  isItem: (element) => hasAttrib(element, "itemscope"),
  types: (element) => words(element.attribs.itemtype).map(localName),
  id: (element) => element.attribs.itemid ?? null,
  propertyNames: (element) => words(element.attribs.itemprop),
  references: (element) => words(element.attribs.itemref),
};

export const rdfa: Vocabulary = {
  name: "rdfa",
  isItem: (element) => hasAttrib(element, "typeof"),
  types: (element) => words(element.attribs.typeof).map(localName),
  id: (element) => element.attribs.resource ?? element.attribs.about ?? null,
  propertyNames: (element) => words(element.attribs.property),
  references: () => [],
};

/**
 * Top-level items: scopes inside no other item, and scopes that are no property of the item they
 * sit in (a Product inside a WebPage scope). Nothing inside a product's scope is top-level: a
 * tile in its related-products block is not the page's product.
 */
export function scopedItems(document: Document, vocabulary: Vocabulary, productTypes: readonly string[]): Item[] {
  const scopes = findElements(document.children, vocabulary.isItem, MAX_ITEMS);
  const topLevel = scopes.filter((scope) => {
    // A product tile in a slider or a related-products block is not the page's product.
    if (inListing(scope)) return false;
    const enclosing = enclosingItems(scope, vocabulary);
    if (enclosing.length === 0) return true;
    return vocabulary.propertyNames(scope).length === 0 && !enclosing.some((item) => vocabulary.types(item).some((type) => productTypes.includes(type)));
  });
  const budget = new Budget();
  return topLevel.slice(0, MAX_VALUES).map((scope, index) => scopedItem(scope, vocabulary, document, { budget, depth: 0, path: `${vocabulary.name}[${index}]` }));
}

function enclosingItems(element: Element, vocabulary: Vocabulary): Element[] {
  const items: Element[] = [];
  for (let node = element.parent; node !== null && isTag(node); node = node.parent) {
    if (vocabulary.isItem(node)) items.push(node);
  }
  return items;
}

/**
 * An item's properties: elements below its scope (not inside a nested item) and its `itemref`s.
 * Items nested deeper than MAX_DEPTH are read as their text.
 */
function scopedItem(scope: Element, vocabulary: Vocabulary, document: Document, at: { budget: Budget; depth: number; path: string }): Item {
  const props = new Map<string, Value[]>();
  const item: Item = { types: vocabulary.types(scope), id: vocabulary.id(scope), props, path: at.path };
  if (at.depth >= MAX_DEPTH || !at.budget.take()) return item;
  const roots: Element[] = [...scope.children.filter(isTag)];
  for (const id of vocabulary.references(scope).slice(0, 20)) {
    const [referenced] = findElements(document.children, (element) => element.attribs.id === id, 1);
    if (referenced && referenced !== scope) roots.push(referenced);
  }
  const stack = roots.reverse();
  while (stack.length > 0) {
    const element = stack.pop()!;
    const names = vocabulary.propertyNames(element);
    const nested = vocabulary.isItem(element);
    if (names.length > 0) {
      const value = nested ? scopedItem(element, vocabulary, document, { ...at, depth: at.depth + 1, path: `${at.path} ${names[0]}` }) : elementValue(element);
      for (const name of names) addValue(props, propertyName(name), value);
    }
    if (!nested) for (let index = element.children.length - 1; index >= 0; index--) if (isTag(element.children[index]!)) stack.push(element.children[index] as Element);
  }
  return item;
}

/** A property element's value, by the microdata rules (RDFa's `content` and `resource` alike). */
function elementValue(element: Element): string {
  const { attribs } = element;
  if (attribs.content !== undefined) return attribs.content;
  if ((element.name === "a" || element.name === "link") && attribs.href !== undefined) return attribs.href;
  if (attribs.resource !== undefined) return attribs.resource;
  if (element.name === "data" && attribs.value !== undefined) return attribs.value;
  if (element.name === "meta" && attribs.value !== undefined) return attribs.value;
  return visibleText(element, 300).replace(/\s+/g, " ").trim();
}

/**
 * The offer a page prints with `itemprop` and no `itemscope` anywhere around it (a large UK
 * grocer prints every product page so): the first `price`, `lowPrice`, `priceCurrency` and
 * `availability` properties outside any scope, as one Offer. Null when there is no price.
 */
export function unscopedOffer(document: Document): Item | null {
  const props = new Map<string, Value[]>();
  const names = new Set(["price", "lowprice", "highprice", "pricecurrency", "availability"]);
  for (const element of elementsIn(document.children)) {
    if (props.size === names.size) break;
    const own = microdata.propertyNames(element).map(propertyName).filter((name) => names.has(name) && !props.has(name));
    if (own.length === 0 || microdata.isItem(element) || enclosingItems(element, microdata).length > 0 || inListing(element)) continue;
    for (const name of own) addValue(props, name, elementValue(element));
  }
  if (!props.has("price") && !props.has("lowprice")) return null;
  return { types: ["offer"], id: null, props, path: "itemprop without itemscope" };
}
