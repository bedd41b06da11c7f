/**
 * Where shop platforms keep the product's price when a page carries no schema.org data: the
 * framework state a script renders from (Next.js `__NEXT_DATA__`, Nuxt `__NUXT_DATA__` and
 * `window.__NUXT__`, Shopify's product JSON), the platform's own price markup (Magento's
 * `data-price-amount`, Salesforce Commerce Cloud's `.prices .sales .value`) and the price printed
 * next to the page's buy button. Each reader gives candidates; the extractor decides among them.
 */
import { isTag, type Document, type Element } from "domhandler";
import type { Pence } from "./money.ts";
import { elementsIn, findElements, inListing, isCrossedOut, printedPrices, rawText, visibleText, words, type PrintedPrice } from "./offer-extract-html.ts";
import { parseCurrency, parseSchemaPrice } from "./price-text.ts";

/** One priced thing a source offers, with what can tie it to the page. */
export interface Candidate {
  price: Pence;
  currency: string | null;
  inStock: boolean | null;
  /** Where it was read: "offers[1]", "props.pageProps.product.variants[2]". */
  path: string;
  /** What the page calls it (a variant's title, an offer's name), when it says. */
  label: string | null;
  /** Addresses, ids, SKUs and barcodes that can match the page's URL. */
  codes: string[];
  /** Names and size words that can match the page's h1 or title. */
  names: string[];
  /** A starting price ("from"): an AggregateOffer's lowPrice. */
  from: boolean;
}

const MAX_STATE_CHARS = 3_000_000;
const MAX_STATE_NODES = 200_000;
const MAX_STATE_DEPTH = 60;
const MAX_CANDIDATES = 200;

type Json = unknown;
type JsonObject = Record<string, unknown>;
const isObject = (value: unknown): value is JsonObject => typeof value === "object" && value !== null && !Array.isArray(value);

function parseJson(text: string): Json {
  if (text.length > MAX_STATE_CHARS) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function scriptsWhere(document: Document, test: (script: Element) => boolean, limit = 20): Element[] {
  return findElements(document.children, (element) => element.name === "script" && test(element), limit);
}

// ---------------------------------------------------------------------------------------------
// Framework state: Next.js and Nuxt

export interface FrameworkState {
  framework: "next-data" | "nuxt";
  data: Json;
}

/** The page's framework state, parsed: Next.js `__NEXT_DATA__`, Nuxt 3 `__NUXT_DATA__`, Nuxt 2 `window.__NUXT__ = {…}`. */
export function frameworkStates(document: Document): FrameworkState[] {
  const states: FrameworkState[] = [];
  for (const script of scriptsWhere(document, (script) => script.attribs.id === "__NEXT_DATA__", 1)) {
    const data = parseJson(rawText(script, MAX_STATE_CHARS + 1));
    if (data !== undefined) states.push({ framework: "next-data", data });
  }
  for (const script of scriptsWhere(document, (script) => script.attribs.id === "__NUXT_DATA__", 1)) {
    const data = reviveNuxtData(parseJson(rawText(script, MAX_STATE_CHARS + 1)));
    if (data !== undefined) states.push({ framework: "nuxt", data });
  }
  for (const script of scriptsWhere(document, (script) => script.attribs.src === undefined, 200)) {
    const text = rawText(script, MAX_STATE_CHARS + 1);
    const start = /^\s*window\.__NUXT__\s*=\s*(?=\{)/.exec(text);
    if (start === null) continue;
    const data = parseJson(text.slice(start[0].length).replace(/;\s*$/, ""));
    if (data !== undefined) states.push({ framework: "nuxt", data });
  }
  return states;
}

/**
 * Nuxt 3 writes its payload as one flat array where objects and arrays hold indices of other
 * entries (devalue). Rebuilt iteratively, each entry once, to MAX_STATE_NODES entries; wrappers
 * such as ["Reactive", 3] and ["ShallowRef", 5] stand for their one value.
 */
function reviveNuxtData(payload: Json): Json {
  if (!Array.isArray(payload) || payload.length === 0 || payload.length > MAX_STATE_NODES) return undefined;
  const revived = new Map<number, unknown>();
  const wrappers = new Set(["Reactive", "ShallowReactive", "Ref", "ShallowRef", "EmptyRef", "EmptyShallowRef", "NuxtError"]);
  const valueAt = (index: unknown): unknown => (typeof index === "number" && Number.isInteger(index) && index >= 0 && index < payload.length ? shell(index) : undefined);
  const pending: number[] = [];
  const shell = (index: number): unknown => {
    if (revived.has(index)) return revived.get(index);
    const raw = payload[index];
    if (Array.isArray(raw) && typeof raw[0] === "string" && wrappers.has(raw[0])) {
      revived.set(index, undefined);
      const inner = valueAt(raw[1]);
      revived.set(index, inner);
      return inner;
    }
    const made = Array.isArray(raw) ? [] : isObject(raw) ? {} : raw;
    revived.set(index, made);
    if (typeof made === "object" && made !== null) pending.push(index);
    return made;
  };
  const root = shell(0);
  while (pending.length > 0) {
    const index = pending.pop()!;
    const raw = payload[index];
    const made = revived.get(index);
    if (Array.isArray(raw) && Array.isArray(made)) for (const entry of raw.slice(0, MAX_CANDIDATES * 10)) made.push(valueAt(entry));
    else if (isObject(raw) && isObject(made)) for (const [key, entry] of Object.entries(raw)) made[key] = valueAt(entry);
  }
  return root;
}

/** Price fields a shopper pays, most specific first; the plain `price` and `value` last. */
const currentPriceKeys = [
  "saleprice", "promotionbase", "promotionprice", "promoprice", "specialprice", "finalprice", "currentprice", "nowprice",
  "sellingprice", "offerprice", "discountedprice", "price", "value", "amount", "base", "baseprice", "centamount",
];
/** Field names that are not the price to pay: an old, recommended, unit or subscription price. */
const notPayablePrice = /was|rrp|msrp|list|regular|original|standard|strike|compare|before|old|previous|repeat|subscri|autoship|peruom|perunit|unit|min|max|range|tax|vat|shipping|delivery|saving|discount(?!ed)/i;

/**
 * The price an object of framework state gives for itself: a current-price field holding a number
 * (or numeric text), or a `price`/`prices` object holding one. A field named in cents
 * (`centAmount`, `…InPence`, `…Cents`) counts minor units.
 */
function statePrice(object: JsonObject, depth = 0): { price: Pence; currency: string | null } | null {
  const keys = new Map(Object.keys(object).map((key) => [key.toLowerCase(), key]));
  const currency = parseCurrency(object.currency ?? object.currencyCode ?? object.currencycode ?? object.priceCurrency);
  for (const wanted of currentPriceKeys) {
    const key = keys.get(wanted);
    if (key === undefined) continue;
    const value = object[key];
    if (typeof value === "number" || typeof value === "string") {
      const minor = wanted === "centamount" ? centAmount(value, object.fractionDigits) : parseSchemaPrice(value, currency);
      if (minor !== null) return { price: minor, currency };
    } else if (isObject(value) && depth < 2) {
      const inner = statePrice(value, depth + 1);
      if (inner) return { price: inner.price, currency: inner.currency ?? currency };
    }
  }
  for (const [lower, key] of keys) {
    if (!/(inpence|cents)$/.test(lower) || notPayablePrice.test(lower.replace(/inpence|cents/, ""))) continue;
    const value = object[key];
    if (typeof value === "number" && Number.isInteger(value) && value > 0) return { price: value, currency: currency ?? (lower.endsWith("inpence") ? "GBP" : null) };
  }
  return null;
}

function centAmount(value: number | string, fractionDigits: unknown): Pence | null {
  const amount = Number(value);
  const digits = typeof fractionDigits === "number" ? fractionDigits : 2;
  if (!Number.isInteger(amount) || amount <= 0) return null;
  return digits === 2 ? amount : Math.round(amount * 10 ** (2 - digits));
}

const codeKeys = new Set(["id", "sku", "code", "productid", "productcode", "variantid", "gtin", "gtin13", "ean", "barcode", "upc", "mpn", "slug", "url", "handle", "path", "href", "partnumber", "itemid", "articlenumber"]);
const nameKeys = new Set(["name", "title", "fullname", "displayname", "label", "variantname", "public_title", "size", "weight"]);
const stockKeys = ["isinstock", "instock", "available", "isavailable", "availability", "stockstatus", "purchasable", "isbuyable"];

/**
 * Objects in framework state that carry a price, as candidates with the ids, names and stock
 * beside the price: a walk of at most MAX_STATE_NODES values, MAX_STATE_DEPTH deep, without
 * recursion. A price object itself (`{ base, promotionBase }`) is read through its owner.
 */
export function stateCandidates(data: Json, root: string): Candidate[] {
  const candidates: Candidate[] = [];
  const stack: { value: unknown; path: string; depth: number }[] = [{ value: data, path: root, depth: 0 }];
  let seen = 0;
  while (stack.length > 0 && seen < MAX_STATE_NODES && candidates.length < MAX_CANDIDATES) {
    const { value, path, depth } = stack.pop()!;
    seen += 1;
    if (depth > MAX_STATE_DEPTH) continue;
    if (Array.isArray(value)) {
      for (let index = Math.min(value.length, 5_000) - 1; index >= 0; index--) stack.push({ value: value[index], path: `${path}[${index}]`, depth: depth + 1 });
      continue;
    }
    if (!isObject(value)) continue;
    const found = priceOwner(value) ? statePrice(value) : null;
    if (found) {
      const codes: string[] = [];
      const names: string[] = [];
      let inStock: boolean | null = null;
      for (const [key, field] of Object.entries(value)) {
        const lower = key.toLowerCase();
        if ((typeof field === "string" || typeof field === "number") && String(field).length <= 300) {
          if (codeKeys.has(lower)) codes.push(String(field));
          if (nameKeys.has(lower)) names.push(String(field));
        }
        if (lower === "barcodedetails" && Array.isArray(field)) for (const barcode of field.slice(0, 10)) if (isObject(barcode) && typeof barcode.value === "string") codes.push(barcode.value);
      }
      for (const key of stockKeys) {
        const field = Object.entries(value).find(([name]) => name.toLowerCase() === key)?.[1];
        if (typeof field === "boolean") {
          inStock = field;
          break;
        }
      }
      candidates.push({ ...found, inStock, path, label: names[0] ?? null, codes, names, from: false });
    }
    for (const [key, field] of Object.entries(value).reverse()) {
      if (typeof field === "object" && field !== null) stack.push({ value: field, path: `${path}.${key}`, depth: depth + 1 });
    }
  }
  return candidates;
}

/** An object that stands for a product or variant: it names itself (an id, SKU or name) beside its price. */
function priceOwner(object: JsonObject): boolean {
  return Object.keys(object).some((key) => codeKeys.has(key.toLowerCase()) || nameKeys.has(key.toLowerCase()));
}

// ---------------------------------------------------------------------------------------------
// Shopify

export interface ShopifyProduct {
  candidates: Candidate[];
}

/**
 * Shopify's product JSON: `<script type="application/json" data-product-json>` (or an id
 * starting "ProductJson"), the `/products/x.js` shape, or the theme's `var meta = {product: …}`.
 * Variant prices are integer cents in both; text with a decimal point is pounds (`/products/x.json`).
 */
export function shopifyVariants(document: Document): Candidate[] {
  const products: JsonObject[] = [];
  for (const script of scriptsWhere(document, (script) => script.attribs.type === "application/json" && (script.attribs["data-product-json"] !== undefined || /^ProductJson/i.test(script.attribs.id ?? "")), 5)) {
    const data = parseJson(rawText(script, MAX_STATE_CHARS + 1));
    const product = isObject(data) && isObject(data.product) ? data.product : data;
    if (isObject(product) && Array.isArray(product.variants)) products.push(product);
  }
  for (const script of scriptsWhere(document, (script) => script.attribs.src === undefined, 200)) {
    const text = rawText(script, MAX_STATE_CHARS + 1);
    const match = /var meta\s*=\s*(\{.*?\});\s*(?:\n|for\s*\(|$)/s.exec(text);
    if (!match) continue;
    const data = parseJson(match[1]!);
    if (isObject(data) && isObject(data.product) && Array.isArray(data.product.variants)) products.push(data.product);
  }
  const [product] = products;
  if (product === undefined) return [];
  const variants = (product.variants as unknown[]).slice(0, MAX_CANDIDATES);
  return variants.flatMap((variant, index): Candidate[] => {
    if (!isObject(variant)) return [];
    const raw = variant.price;
    const price = typeof raw === "number" && Number.isInteger(raw) ? (raw > 0 ? raw : null) : parseSchemaPrice(raw);
    if (price === null) return [];
    const title = [variant.public_title, variant.title, variant.name].find((value) => typeof value === "string") as string | undefined;
    return [
      {
        price,
        currency: null,
        inStock: typeof variant.available === "boolean" ? variant.available : null,
        path: `product.variants[${index}]`,
        label: title ?? null,
        codes: [variant.id, variant.sku, variant.barcode].filter((code) => typeof code === "string" || typeof code === "number").map(String),
        names: title ? [title] : [],
        from: false,
      },
    ];
  });
}

/** The shop currency Shopify prints in its scripts (`Shopify.currency = {"active":"GBP"…}`). */
export function shopifyCurrency(document: Document): string | null {
  for (const script of scriptsWhere(document, (script) => script.attribs.src === undefined, 200)) {
    const match = /Shopify\.currency\s*=\s*\{[^}]*"active"\s*:\s*"([A-Za-z]{3})"/.exec(rawText(script, 200_000));
    if (match) return parseCurrency(match[1]);
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// Platform price markup: Magento and Salesforce Commerce Cloud

function hasClassWord(element: Element, word: string): boolean {
  return words(element.attribs.class).includes(word);
}

function ancestorWithClass(element: Element, word: string, within = 8): Element | null {
  let node = element.parent;
  for (let step = 0; node !== null && isTag(node) && step < within; step++, node = node.parent) if (hasClassWord(node, word)) return node;
  return null;
}

/**
 * Magento's final price: `data-price-amount` of the `data-price-type="finalPrice"` element in the
 * price box of the product the add-to-cart form sends (`input[name=product]`), else the one in
 * the product panel (.product-info-main), never a related product's.
 */
export function magentoPrices(document: Document): Candidate[] {
  const [productInput] = findElements(document.children, (element) => element.name === "input" && element.attribs.name === "product" && /^\d+$/.test(element.attribs.value ?? ""), 1);
  const productId = productInput?.attribs.value ?? null;
  const finals = findElements(document.children, (element) => element.attribs["data-price-type"] === "finalPrice" && element.attribs["data-price-amount"] !== undefined, 100);
  const own = finals.filter((element) => {
    if (inListing(element)) return false;
    const box = closest(element, (node) => node.attribs["data-product-id"] !== undefined || hasClassWord(node, "price-box"));
    if (productId !== null && box?.attribs["data-product-id"] !== undefined) return box.attribs["data-product-id"] === productId;
    return ancestorWithClass(element, "product-info-main", 30) !== null || ancestorWithClass(element, "product-info-price", 30) !== null;
  });
  return own.flatMap((element, index) => {
    const price = parseSchemaPrice(element.attribs["data-price-amount"]);
    return price === null ? [] : [{ price, currency: null, inStock: null, path: `finalPrice[${index}]`, label: null, codes: [], names: [], from: false }];
  });
}

function closest(element: Element, test: (node: Element) => boolean, within = 12): Element | null {
  let node: Element | null = element;
  for (let step = 0; node !== null && step <= within; step++) {
    if (test(node)) return node;
    node = node.parent !== null && isTag(node.parent) ? node.parent : null;
  }
  return null;
}

/**
 * Salesforce Commerce Cloud's sales price: `.prices .sales .value` with its amount in `content`
 * (the text is the formatted price), outside product tiles; the first in the product panel.
 */
export function sfccPrices(document: Document): Candidate[] {
  const values = findElements(
    document.children,
    (element) => hasClassWord(element, "value") && element.attribs.content !== undefined && ancestorWithClass(element, "sales", 3) !== null && ancestorWithClass(element, "prices", 6) !== null,
    50,
  );
  return values
    .filter((element) => !inListing(element) && !isCrossedOut(element))
    .flatMap((element, index) => {
      const currency = parseCurrency(element.attribs["data-currency"] ?? null);
      const price = parseSchemaPrice(element.attribs.content, currency);
      return price === null ? [] : [{ price, currency, inStock: null, path: `.prices .sales .value[${index}]`, label: null, codes: [], names: [], from: false }];
    });
}

// ---------------------------------------------------------------------------------------------
// The price beside the buy button

const buyWords = /\b(?:add\s*to\s*(?:basket|bag|cart|trolley)|buy\s*(?:it\s*)?now|buy\s*used|buy\s*new|add\s*to\s*order|in\s*den\s*warenkorb|ajouter\s*au\s*panier|añadir\s*a\s*la\s*cesta|añadir\s*al\s*carrito)\b/i;
const buyAttributes = /add[-_]?to[-_]?(?:basket|bag|cart|trolley)|addtocart|addtobasket|buy[-_]?now|buy[-_]?box/i;

/** Buttons that put the page's product in the basket, in document order (at most five). */
function buyButtons(document: Document): Element[] {
  const buttons: Element[] = [];
  for (const element of elementsIn(document.children)) {
    if (buttons.length >= 5) break;
    if (!["button", "input", "a"].includes(element.name) && element.attribs.role !== "button") continue;
    if (element.name === "input" && !["submit", "button", "image"].includes((element.attribs.type ?? "").toLowerCase())) continue;
    const label = `${element.attribs.value ?? ""} ${element.attribs["aria-label"] ?? ""} ${element.attribs.title ?? ""}`;
    const attributes = `${element.attribs.id ?? ""} ${element.attribs.name ?? ""} ${element.attribs.class ?? ""} ${element.attribs["data-testid"] ?? ""}`;
    if (inListing(element)) continue;
    if (buyWords.test(label) || buyWords.test(visibleText(element, 100)) || buyAttributes.test(attributes) || submitsBuyForm(element)) buttons.push(element);
  }
  return buttons;
}

/** A submit button of a form that adds to the basket (`action="/cart/add"`, "OrderItemAdd", `product_addtocart_form`). */
function submitsBuyForm(element: Element): boolean {
  if (element.name === "a" || (element.attribs.type ?? "submit").toLowerCase() !== "submit") return false;
  const form = closest(element, (node) => node.name === "form", 30);
  if (form === null) return false;
  const attributes = `${form.attribs.action ?? ""} ${form.attribs.id ?? ""} ${form.attribs.name ?? ""} ${form.attribs.class ?? ""}`;
  return buyAttributes.test(attributes) || /cart\/add|orderitemadd|additem/i.test(attributes);
}

export interface BuyBoxPrice {
  /** The prices nearest the first buy button, in document order. */
  printed: PrintedPrice[];
  /** The first two buy buttons (basket and buy-now) stand by one amount: not a listing or a row of pack sizes. */
  agreed: boolean;
}

/**
 * The prices printed nearest each buy button: walking up from it, the first ancestor (up to ten
 * levels) whose text holds a price; its prices in document order, crossed-out, delivery, saving,
 * unit and related-product prices left out. When the first two buttons (one per pack size, or a
 * listing's tiles) stand by different prices, no one price is the page's.
 */
export function buyBoxPrices(document: Document): BuyBoxPrice | null {
  const found: PrintedPrice[][] = [];
  for (const button of buyButtons(document)) {
    let node: Element = button;
    for (let levels = 1; levels <= 10 && node.parent !== null && isTag(node.parent); levels++) {
      node = node.parent;
      if (node.name === "body" || node.name === "html") break;
      const printed = printedPrices(node).filter((price) => !inListing(price.element));
      if (printed.length > 0) {
        found.push(printed);
        break;
      }
    }
  }
  const [first] = found;
  if (first === undefined) return null;
  const firstAmount = first[0]!.price.pence;
  return { printed: first, agreed: found.slice(0, 2).every((printed) => printed[0]!.price.pence === firstAmount) };
}
