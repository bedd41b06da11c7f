/**
 * Reads the offer (price, currency, stock) of the product a retailer's page is about, from the
 * page's HTML alone: no fetching here. Sources in order of trust: schema.org JSON-LD, microdata,
 * RDFa, product meta tags, then where each known retailer prints its price. The first source
 * that yields a price wins. Currency is reported as the page gives it, never converted.
 */
import { hasAttrib, filter, findAll, getElementById, textContent } from "domutils";
import { isTag, isText, type AnyNode, type Document, type Element } from "domhandler";
import { parseDocument } from "htmlparser2";
import type { Pence } from "./money.ts";
import { parseCurrency, parsePriceText, parseSchemaPrice } from "./price-text.ts";
import { extractionHintsFor, type ExtractionHints } from "./retailers.ts";

export type OfferSource = "json-ld" | "microdata" | "rdfa" | "meta" | `retailer:${string}`;

export interface ExtractedOffer {
  price: Pence;
  /** ISO 4217 code as the page gives it; a non-GBP offer is reported, for the caller to refuse. */
  currency: string;
  /** Whether a shopper can buy it for delivery now; null when the page does not say. */
  inStock: boolean | null;
  source: OfferSource;
}

/** What one source found, before the page's default currency applies. */
interface FoundOffer {
  price: Pence;
  currency: string | null;
  inStock: boolean | null;
}

/**
 * A schema.org item read from JSON-LD, microdata or RDFa into one shape, so one reader serves all
 * three. Type names are local ("Product"); property names are local and lower-cased ("offers").
 */
interface Item {
  types: string[];
  /** `@id`, `itemid` or RDFa `resource`: often the page's own URL. */
  id: string | null;
  props: Map<string, Value[]>;
}
type Value = string | Item;

interface Page {
  /** Null when the page's address is not a URL: then no product or variant matches it. */
  url: URL | null;
  host: string;
}

/**
 * Reads the offer of the product the page is about, or null when the page shows none (a 404, a
 * category page) or names no currency it can be read in.
 *
 * Currency: what the page says; only when it says nothing is GBP assumed, and only for a .uk host
 * or a page that shows a "£" sign.
 * Stock: InStock, LimitedAvailability and OnlineOnly are in stock. OutOfStock, SoldOut,
 * Discontinued and InStoreOnly (an online shopper cannot buy) are not; neither are PreOrder,
 * PreSale and BackOrder: they can be ordered but will not arrive now, so they must not be
 * compared with goods that will.
 * @example extractOffer('<meta property="product:price:amount" content="12.99">', "https://shop.co.uk/p/1")
 * // { price: 1299, currency: "GBP", inStock: null, source: "meta" }
 */
export function extractOffer(html: string, pageUrl: string): ExtractedOffer | null {
  const document = parseDocument(html);
  const page = readPage(pageUrl);
  const readers: { source: OfferSource; read: () => FoundOffer | null }[] = [
    { source: "json-ld", read: () => pageProductOffer(jsonLdItems(document), page) },
    { source: "microdata", read: () => pageProductOffer(scopedItems(document, microdata), page) },
    { source: "rdfa", read: () => pageProductOffer(scopedItems(document, rdfa), page) },
    { source: "meta", read: () => metaOffer(document) },
  ];
  const retailer = retailerFor(page.host);
  if (retailer) readers.push({ source: `retailer:${retailer.host}`, read: () => retailerOffer(document, retailer.page) });

  for (const { source, read } of readers) {
    const found = read();
    if (found === null) continue;
    const currency = found.currency ?? (page.host.endsWith(".uk") || showsPoundSign(document) ? "GBP" : null);
    if (currency !== null) return { price: found.price, currency, inStock: found.inStock, source };
  }
  return null;
}

/**
 * Reads a stock statement: schema.org ItemAvailability (with or without its URL prefix), product
 * meta values ("instock", "oos") or a shop's stock text ("Only 2 left in stock"). Null when it
 * says neither.
 * @example readAvailability("https://schema.org/InStock") // true
 * @example readAvailability("PreOrder") // false
 * @example readAvailability("Usually dispatched in 3 weeks") // null
 */
export function readAvailability(value: string): boolean | null {
  // Letters only, so "In_Stock", "in stock" and "https://schema.org/InStock" read alike.
  const words = value.toLowerCase().replace(/[^a-z]/g, "");
  if (words === "oos") return false;
  if (/outofstock|soldout|unavailable|notavailable|discontinued|notinstock|nostock|preorder|presale|backorder|instoreonly|madetoorder|reserved|availablefororder|hasended|listingended/.test(words)) return false;
  if (/instock|limitedavailability|onlineonly|available|lastone/.test(words)) return true;
  return null;
}

function readPage(pageUrl: string): Page {
  try {
    const url = new URL(pageUrl);
    return { url, host: url.hostname };
  } catch {
    return { url: null, host: "" };
  }
}

// ---------------------------------------------------------------------------------------------
// The product and its offer, whichever markup the items came from

const productTypes = ["Product", "ProductGroup", "IndividualProduct", "ProductModel", "SomeProducts"];

/**
 * The page's product: of the products whose URL is the page's (when any is), the first that
 * carries a price; review widgets add Products with ratings and no offers, and one product can
 * appear twice (in a @graph and as a page's mainEntity). Products nested in another item (related
 * products, ItemList entries) are never candidates. With no product, a lone Offer counts.
 */
function pageProductOffer(items: Item[], page: Page): FoundOffer | null {
  const candidates = items.flatMap((item) => [item, ...itemValues(item, "mainentity")]);
  const products = candidates.filter((item) => isType(item, ...productTypes));
  if (products.length > 0) {
    const own = products.filter((product) => describesPage(product, page));
    for (const product of own.length > 0 ? own : products) {
      const found = productOffer(product, page);
      if (found) return found;
    }
    return null;
  }
  return lowestOffer(candidates.filter((item) => isType(item, "Offer", "AggregateOffer")).map(offerOf));
}

/** A product group's variant named by the page URL, else its lowest; else the product's own offer. */
function productOffer(product: Item, page: Page): FoundOffer | null {
  const variants = itemValues(product, "hasvariant");
  const chosen = variants.find((variant) => isPageVariant(variant, page));
  const variantOffer = chosen ? productOffer(chosen, page) : lowestOffer(variants.map((variant) => productOffer(variant, page)));
  return variantOffer ?? offerOf(product);
}

/**
 * An Offer's price: `price`, or `lowPrice` of an AggregateOffer, else the sale price in its
 * `priceSpecification`, else the lowest of its `offers` (those of a Product or AggregateOffer).
 */
function offerOf(offer: Item): FoundOffer | null {
  const written = (isType(offer, "AggregateOffer") ? firstText(offer, "lowprice") : null) ?? firstText(offer, "price");
  let price = parseSchemaPrice(written);
  let currency = parseCurrency(firstText(offer, "pricecurrency")) ?? (written === null ? null : (parsePriceText(written)?.currency ?? null));
  if (price === null) {
    const specification = salePriceSpecification(offer);
    if (specification) {
      price = parseSchemaPrice(firstText(specification, "price"));
      currency ??= parseCurrency(firstText(specification, "pricecurrency"));
    }
  }
  if (price === null) return lowestOffer(itemValues(offer, "offers").map(offerOf));
  const availability = firstText(offer, "availability");
  return { price, currency, inStock: availability === null ? null : readAvailability(availability) };
}

/** `priceType` values of a crossed-out or recommended price, not the price to pay. */
const listPriceTypes = /listprice|strikethroughprice|msrp|srp|invoiceprice|minimumadvertisedprice/i;

/**
 * The price specification a shopper pays: not a list (RRP) or strikethrough price, not a unit
 * price (one with a `referenceQuantity`, such as per kg), not a delivery or payment charge; a
 * compound specification without its own price gives its first such component.
 */
function salePriceSpecification(item: Item): Item | null {
  for (const specification of itemValues(item, "pricespecification", "pricecomponent")) {
    if (isType(specification, "DeliveryChargeSpecification", "PaymentChargeSpecification")) continue;
    if (listPriceTypes.test(firstText(specification, "pricetype") ?? "")) continue;
    if (specification.props.has("referencequantity")) continue;
    if (firstText(specification, "price") !== null) return specification;
    const component = salePriceSpecification(specification);
    if (component) return component;
  }
  return null;
}

/**
 * The lowest offer a UK shopper can buy: in stock (or not said otherwise) and in pounds (or no
 * currency named); failing that the lowest in pounds, then the lowest in stock, then the lowest.
 */
function lowestOffer(offers: readonly (FoundOffer | null)[]): FoundOffer | null {
  const priced = offers.filter((offer) => offer !== null);
  const buyable = (offer: FoundOffer) => offer.inStock !== false;
  const sterling = (offer: FoundOffer) => offer.currency === null || offer.currency === "GBP";
  const preferences = [(offer: FoundOffer) => buyable(offer) && sterling(offer), sterling, buyable, () => true];
  for (const preferred of preferences) {
    const pool = priced.filter(preferred);
    if (pool.length > 0) return pool.reduce((lowest, offer) => (offer.price < lowest.price ? offer : lowest));
  }
  return null;
}

/** An item describes the page when its `@id` or `url` is the page's address, query aside. */
function describesPage(item: Item, page: Page): boolean {
  return itemLinks(item).some((link) => sameAddress(link, page, false));
}

/** A variant is the page's when its address is the page's, query included, or its SKU is in the URL. */
function isPageVariant(variant: Item, page: Page): boolean {
  if (itemLinks(variant).some((link) => sameAddress(link, page, true))) return true;
  const pageTerms = page.url ? [...page.url.searchParams.values(), ...page.url.pathname.split("/")].filter((term) => term !== "") : [];
  return itemTexts(variant, "sku").some((sku) => pageTerms.includes(sku));
}

function itemLinks(item: Item): string[] {
  return item.id === null ? itemTexts(item, "url") : [item.id, ...itemTexts(item, "url")];
}

/** Whether a link (relative to the page) names the page, ignoring the fragment and a trailing slash. */
function sameAddress(link: string, page: Page, withQuery: boolean): boolean {
  if (page.url === null) return false;
  const address = (url: URL) => `${url.origin}${url.pathname.replace(/\/$/, "")}${withQuery ? url.search : ""}`;
  try {
    return address(new URL(link, page.url)) === address(page.url);
  } catch {
    return false;
  }
}

function isType(item: Item, ...types: readonly string[]): boolean {
  return item.types.some((type) => types.includes(type));
}

function itemValues(item: Item, ...names: string[]): Item[] {
  return names.flatMap((name) => item.props.get(name) ?? []).filter((value) => typeof value !== "string");
}

function itemTexts(item: Item, name: string): string[] {
  return (item.props.get(name) ?? []).filter((value) => typeof value === "string");
}

function firstText(item: Item, name: string): string | null {
  return itemTexts(item, name)[0] ?? null;
}

/** "https://schema.org/Product", "schema:Product" and "Product" all name "Product". */
function localName(term: string): string {
  const slash = Math.max(term.lastIndexOf("/"), term.lastIndexOf("#"));
  if (slash >= 0) return term.slice(slash + 1);
  return term.slice(term.indexOf(":") + 1);
}

/** Property names compare lower-cased, so "Offers" and "offers" match; "offer" is a common slip. */
function propertyName(term: string): string {
  const name = localName(term).toLowerCase();
  return name === "offer" ? "offers" : name;
}

function addValue(props: Map<string, Value[]>, name: string, value: Value): void {
  const values = props.get(name);
  if (values) values.push(value);
  else props.set(name, [value]);
}

// ---------------------------------------------------------------------------------------------
// JSON-LD

/** The top-level nodes of every JSON-LD block (arrays and `@graph` opened up), as items. */
function jsonLdItems(document: Document): Item[] {
  const scripts = findAll((element) => element.name === "script" && isJsonLdType(element.attribs.type), document.children);
  const nodes = scripts.flatMap((script) => topLevelNodes(parseJsonLd(textContent(script))));
  const byId = new Map<string, JsonObject>();
  for (const node of nodes) {
    if (typeof node["@id"] === "string" && Object.keys(node).length > 1) byId.set(node["@id"], node);
  }
  return nodes.map((node) => jsonLdItem(node, byId, true));
}

function isJsonLdType(type: string | undefined): boolean {
  return (type ?? "").split(";")[0]!.trim().toLowerCase() === "application/ld+json";
}

/** Parses a JSON-LD block; a broken one is repaired where that is safe, else skipped. */
function parseJsonLd(text: string): unknown {
  // Wrappers some templates put around the JSON (HTML comments, CDATA), trailing commas, and raw
  // line breaks inside strings.
  const repaired = text
    .replace(/\/\*\s*<!\[CDATA\[\s*\*\/|\/\*\s*\]\]>\s*\*\/|\/\/\s*<!\[CDATA\[|\/\/\s*\]\]>|<!\[CDATA\[|\]\]>|<!--|-->/g, "")
    .replace(/,(\s*[}\]])/g, "$1")
    .replace(/[\u0000-\u001f]+/g, " ");
  for (const candidate of [text, repaired]) {
    try {
      return JSON.parse(candidate);
    } catch {
      // Try the repaired text, then give up on this block.
    }
  }
  return undefined;
}

type JsonObject = Record<string, unknown>;

function topLevelNodes(data: unknown): JsonObject[] {
  if (Array.isArray(data)) return data.flatMap(topLevelNodes);
  return isObject(data) ? [data, ...topLevelNodes(data["@graph"])] : [];
}

/**
 * A JSON-LD node as an item. A bare `{"@id": …}` reference to another top-level node of the page
 * is followed one level only (from a top-level node), so reference cycles cannot recur; any other
 * bare reference is an address, read as text (`"availability": {"@id": "…/InStock"}`).
 */
function jsonLdItem(node: JsonObject, byId: Map<string, JsonObject>, followReferences: boolean): Item {
  const props = new Map<string, Value[]>();
  for (const [key, raw] of Object.entries(node)) {
    if (key.startsWith("@")) continue;
    for (const value of [raw].flat()) {
      const read = jsonLdValue(value, byId, followReferences);
      if (read !== null) addValue(props, propertyName(key), read);
    }
  }
  const types = [node["@type"]].flat().filter((type) => typeof type === "string");
  return { types: types.map(localName), id: typeof node["@id"] === "string" ? node["@id"] : null, props };
}

function jsonLdValue(value: unknown, byId: Map<string, JsonObject>, followReferences: boolean): Value | null {
  if (typeof value === "string" || typeof value === "number") return String(value);
  if (!isObject(value)) return null;
  if ("@value" in value) return String(value["@value"]);
  const id = value["@id"];
  if (typeof id !== "string" || Object.keys(value).length > 1) return jsonLdItem(value, byId, followReferences);
  const referenced = followReferences ? byId.get(id) : undefined;
  return referenced ? jsonLdItem(referenced, byId, false) : id;
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

// ---------------------------------------------------------------------------------------------
// Microdata and RDFa: items scoped by elements

interface Vocabulary {
  isItem: (element: Element) => boolean;
  types: (element: Element) => string[];
  id: (element: Element) => string | null;
  propertyNames: (element: Element) => string[];
  /** Ids of elements outside the item that hold more of its properties (microdata `itemref`). */
  references: (element: Element) => string[];
}

const words = (value: string | undefined): string[] => value?.match(/\S+/g) ?? [];

const microdata: Vocabulary = {
  isItem: (element) => hasAttrib(element, "itemscope"),
  types: (element) => words(element.attribs.itemtype).map(localName),
  id: (element) => element.attribs.itemid ?? null,
  propertyNames: (element) => words(element.attribs.itemprop),
  references: (element) => words(element.attribs.itemref),
};

const rdfa: Vocabulary = {
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
function scopedItems(document: Document, vocabulary: Vocabulary): Item[] {
  const topLevel = findAll(vocabulary.isItem, document.children).filter((scope) => {
    const enclosing = enclosingItems(scope, vocabulary);
    if (enclosing.length === 0) return true;
    return vocabulary.propertyNames(scope).length === 0 && !enclosing.some((item) => vocabulary.types(item).some((type) => productTypes.includes(type)));
  });
  return topLevel.map((scope) => scopedItem(scope, vocabulary, document, new Set()));
}

function enclosingItems(element: Element, vocabulary: Vocabulary): Element[] {
  const items: Element[] = [];
  for (let node = element.parent; node !== null && isTag(node); node = node.parent) {
    if (vocabulary.isItem(node)) items.push(node);
  }
  return items;
}

/** An item's properties: elements below its scope (not inside a nested item) and its `itemref`s. */
function scopedItem(scope: Element, vocabulary: Vocabulary, document: Document, ancestors: Set<Element>): Item {
  const inside = new Set(ancestors).add(scope);
  const props = new Map<string, Value[]>();
  const visit = (element: Element): void => {
    const names = vocabulary.propertyNames(element);
    if (names.length > 0 && !inside.has(element)) {
      const value = vocabulary.isItem(element) ? scopedItem(element, vocabulary, document, inside) : elementValue(element);
      for (const name of names) addValue(props, propertyName(name), value);
    }
    if (!vocabulary.isItem(element)) for (const child of element.children) if (isTag(child)) visit(child);
  };
  for (const child of scope.children) if (isTag(child)) visit(child);
  for (const id of vocabulary.references(scope)) {
    const referenced = getElementById(id, document.children);
    if (referenced) visit(referenced);
  }
  return { types: vocabulary.types(scope), id: vocabulary.id(scope), props };
}

/** A property element's value, by the microdata rules (RDFa's `content` and `resource` alike). */
function elementValue(element: Element): string {
  const { attribs } = element;
  if (attribs.content !== undefined) return attribs.content;
  if ((element.name === "a" || element.name === "link") && attribs.href !== undefined) return attribs.href;
  if (attribs.resource !== undefined) return attribs.resource;
  if (element.name === "data" && attribs.value !== undefined) return attribs.value;
  return visibleText(element);
}

// ---------------------------------------------------------------------------------------------
// Product meta tags (Open Graph and Facebook product tags)

/** Amount and currency tag pairs, the sale price first (Facebook's `product:price` is the regular price). */
const metaPrices = [
  ["product:sale_price:amount", "product:sale_price:currency"],
  ["product:price:amount", "product:price:currency"],
  ["og:price:amount", "og:price:currency"],
] as const;

function metaOffer(document: Document): FoundOffer | null {
  const tags = new Map<string, string>();
  for (const meta of findAll((element) => element.name === "meta", document.children)) {
    const key = (meta.attribs.property ?? meta.attribs.name)?.trim().toLowerCase();
    if (key !== undefined && meta.attribs.content !== undefined && !tags.has(key)) tags.set(key, meta.attribs.content);
  }
  for (const [amountTag, currencyTag] of metaPrices) {
    const price = parseSchemaPrice(tags.get(amountTag));
    if (price === null) continue;
    const currency = parseCurrency(tags.get(currencyTag) ?? tags.get("product:price:currency") ?? tags.get("og:price:currency"));
    const availability = tags.get("product:availability") ?? tags.get("og:availability");
    return { price, currency, inStock: availability === undefined ? null : readAvailability(availability) };
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// Retailers' own price elements, for pages without structured data

/**
 * One step of a descendant chain: `#id`, `.class` or `[attribute="value"]`, all a retailer table
 * needs. `word` steps match one word of a space-separated attribute (class).
 */
interface SelectorStep {
  attribute: string;
  value: string;
  word: boolean;
}
type Selector = SelectorStep[];

/** Parses selectors; a malformed one throws (the registry test parses every entry's). */
function selectors(...list: string[]): Selector[] {
  return list.map((selector) =>
    selector.split(" ").map((step) => {
      if (step.startsWith("#")) return { attribute: "id", value: step.slice(1), word: false };
      if (step.startsWith(".")) return { attribute: "class", value: step.slice(1), word: true };
      const [, attribute, value] = /^\[([\w-]+)="([^"]*)"\]$/.exec(step) ?? [];
      if (attribute === undefined || value === undefined) throw new Error(`Unsupported selector step "${step}" in "${selector}"`);
      return { attribute, value, word: false };
    }),
  );
}

interface RetailerPage {
  /** Where the price stands, most specific first. */
  price: Selector[];
  /** Where the stock message stands. */
  stock: Selector[];
}

/** Parsed selectors of each registry entry's hints, parsed once per hints object. */
const parsedHints = new WeakMap<ExtractionHints, RetailerPage>();

/**
 * Where the retailer at `host` prints the product's price and stock (from the retailer registry),
 * scoped to the product panel so carousel tiles ("from £3.49") never match. A crossed-out match
 * (isCrossedOut) is skipped and crossed-out text inside a match is not read, so RRPs and
 * was-prices never win.
 */
function retailerFor(host: string): { host: string; page: RetailerPage } | null {
  const found = extractionHintsFor(host);
  if (found === null) return null;
  let page = parsedHints.get(found.hints);
  if (page === undefined) {
    page = { price: selectors(...found.hints.price), stock: selectors(...found.hints.stock) };
    parsedHints.set(found.hints, page);
  }
  return { host: found.host, page };
}

function retailerOffer(document: Document, retailer: RetailerPage): FoundOffer | null {
  for (const selector of retailer.price) {
    for (const element of select(document, selector)) {
      if (isCrossedOut(element)) continue;
      // Magento prints the amount as a number in data-price-amount; otherwise read the shop's text.
      const amount = element.attribs["data-price-amount"];
      const read = amount === undefined ? parsePriceText(visibleText(element)) : { pence: parseSchemaPrice(amount), currency: null };
      if (read === null || read.pence === null) continue;
      const stock = retailer.stock.flatMap((stockSelector) => select(document, stockSelector))[0];
      return { price: read.pence, currency: read.currency, inStock: stock ? readAvailability(visibleText(stock)) : null };
    }
  }
  return null;
}

function matchesStep(element: Element, step: SelectorStep): boolean {
  const value = element.attribs[step.attribute];
  return step.word ? words(value).includes(step.value) : value === step.value;
}

/** Elements matching a descendant chain ("#core .a-price .a-offscreen"), in document order. */
function select(document: Document, selector: Selector): Element[] {
  const target = selector.at(-1)!;
  const ancestors = selector.slice(0, -1);
  return findAll((element) => {
    if (!matchesStep(element, target)) return false;
    let pending = ancestors.length - 1;
    for (let node = element.parent; node !== null && isTag(node) && pending >= 0; node = node.parent) {
      if (matchesStep(node, ancestors[pending]!)) pending--;
    }
    return pending < 0;
  }, document.children);
}

// ---------------------------------------------------------------------------------------------
// Page text

/** Class-name words that mark a price as old or recommended: "was-price", "rrp", "price--strike". */
const crossedOutClassWords = new Set(["was", "rrp", "msrp", "strike", "strikethrough", "old", "crossed"]);
const crossedOutTags = new Set(["del", "s", "strike"]);

/**
 * A price element crossed out by its own markup or by one of its three nearest ancestors:
 * <del>, <s>, <strike>, a class word such as "was" or "rrp", or Amazon's data-a-strike="true".
 * Ancestors further out are layout, whose class names say nothing about the price.
 */
function isCrossedOut(element: Element): boolean {
  let node: AnyNode | null = element;
  for (let depth = 0; depth <= 3 && node !== null && isTag(node); depth++, node = node.parent) {
    if (crossedOutElement(node)) return true;
  }
  return false;
}

function crossedOutElement(element: Element): boolean {
  if (crossedOutTags.has(element.name) || element.attribs["data-a-strike"] === "true") return true;
  return words(element.attribs.class).some((name) => name.toLowerCase().split(/[-_]/).some((word) => crossedOutClassWords.has(word)));
}

const hiddenTags = new Set(["script", "style", "template", "noscript"]);

/** An element's text without scripts and without crossed-out prices inside it. */
function visibleText(element: Element): string {
  const textOf = (node: AnyNode): string => {
    if (isText(node)) return node.data;
    if (!isTag(node) || hiddenTags.has(node.name) || crossedOutElement(node)) return "";
    return node.children.map(textOf).join("");
  };
  return element.children.map(textOf).join("");
}

function showsPoundSign(document: Document): boolean {
  const inHiddenTag = (node: AnyNode) => {
    for (let parent = node.parent; parent !== null; parent = parent.parent) if (isTag(parent) && hiddenTags.has(parent.name)) return true;
    return false;
  };
  return filter((node) => isText(node) && node.data.includes("£") && !inHiddenTag(node), document.children, true, 1).length > 0;
}
