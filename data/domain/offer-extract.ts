/**
 * Reads the offer (price, currency, stock) of the product a retailer's page is about, from the
 * page's HTML alone: no fetching here. Sources in order of trust: schema.org JSON-LD, microdata,
 * RDFa, product meta tags, `itemprop` without a scope, framework state (Next.js, Nuxt, Shopify),
 * platform price markup (Magento, Salesforce Commerce Cloud), the retailer registry's hints, and
 * last the price printed beside the buy button. The first source that decides wins; a source
 * with several offers at different prices decides only by the page's own signals, else the
 * reading is undecided and lists the candidates. Currency is reported as the page gives it,
 * never converted. Every result says which rule found it (evidence) and how sure it is.
 */
import type { Document } from "domhandler";
import type { Pence } from "./money.ts";
import { packSizeOf, type PackSize } from "./product-quantity.ts";
import { parseCurrency, parsePriceText, parseSchemaPrice } from "./price-text.ts";
import { extractionHintsFor, type ExtractionHints } from "./retailers.ts";
import { findElements, isCrossedOut, parsePage, parseSelectors, select, showsPoundSign, visibleText, type Selector } from "./offer-extract-html.ts";
import { firstText, isType, itemTexts, itemValues, jsonLdItems, MAX_VALUES, microdata, rdfa, scopedItems, unscopedOffer, type Item } from "./offer-extract-items.ts";
import {
  buyBoxPrices,
  frameworkStates,
  magentoPrices,
  sfccPrices,
  shopifyCurrency,
  shopifyVariants,
  stateCandidates,
  type BuyBoxPrice,
  type Candidate,
} from "./offer-extract-state.ts";

export type OfferSource =
  | "json-ld"
  | "microdata"
  | "rdfa"
  | "meta"
  | "itemprop"
  | "next-data"
  | "nuxt"
  | "shopify"
  | "magento"
  | "sfcc"
  | "buy-box"
  | `retailer:${string}`;

/**
 * high: structured data naming one price for the page's product. medium: a price chosen by the
 * page's signals (pack size, the buy button's price, a "from" price), product meta tags,
 * platform markup or a retailer's known price element. low: a price read from visible text
 * alone, or in a currency the page does not name: held for review, never published unseen.
 */
export type OfferConfidence = "high" | "medium" | "low";

export interface OfferEvidence {
  source: OfferSource;
  /** The rule that found the price, in words: "json-ld Product offers[2] matched by pack size 4kg in h1". */
  rule: string;
  /** Where it stands: a JSON path or the printed text ("£53.00"). */
  snippet: string | null;
}

/** One offer the page gives when it names several and none was chosen. */
export interface OfferCandidate {
  price: Pence;
  currency: string | null;
  inStock: boolean | null;
  /** What the page calls it, or where it stands when it names it nothing. */
  label: string;
}

export interface ExtractedOffer {
  /** Integer hundredths of `currency` (pence for GBP). */
  price: Pence;
  /** ISO 4217 code as the page gives it; null when the page names none (callers refuse or hold it). */
  currency: string | null;
  /** Whether a shopper can buy it for delivery now; null when the page does not say. */
  inStock: boolean | null;
  source: OfferSource;
  evidence: OfferEvidence;
  confidence: OfferConfidence;
  /** The other offers the source listed, when it listed several. */
  candidates: OfferCandidate[];
}

export type OfferReading =
  | { status: "found"; offer: ExtractedOffer }
  /** Several offers at different prices and nothing on the page picks one. */
  | { status: "undecided"; source: OfferSource; reason: string; candidates: OfferCandidate[] }
  | { status: "none"; reason: string };

interface PageContext {
  /** Null when the page's address is not a URL: then no product or variant matches it. */
  url: URL | null;
  host: string;
  document: Document;
  /** The page's h1 texts, then og:title and title: where its pack size is named. */
  headings: { where: string; text: string }[];
  buyBox: () => BuyBoxPrice | null;
  meta: () => Map<string, string>;
}

/** What one source found: one offer decided by a rule, or several nothing decides. */
type SourceResult =
  | { kind: "decided"; chosen: Candidate; rule: string; confidence: OfferConfidence; others: Candidate[] }
  | { kind: "undecided"; candidates: Candidate[]; reason: string };

/**
 * Reads the offer of the product the page is about, with the rule that found it; "undecided"
 * with the candidates when the page lists several prices and nothing on it picks one; "none"
 * with the reason when it shows no price (a 404, a category page).
 *
 * Currency: what the page says; only when it says nothing is GBP assumed, and only for a .uk host
 * or a page that shows a "£" sign; otherwise the price is reported with currency null.
 * Stock: InStock, LimitedAvailability and OnlineOnly are in stock. OutOfStock, SoldOut,
 * Discontinued and InStoreOnly (an online shopper cannot buy) are not; neither are PreOrder,
 * PreSale and BackOrder: they can be ordered but will not arrive now.
 * @example readOffer('<meta property="product:price:amount" content="12.99">', "https://shop.co.uk/p/1")
 * // { status: "found", offer: { price: 1299, currency: "GBP", source: "meta", confidence: "medium", … } }
 */
export function readOffer(html: string, pageUrl: string): OfferReading {
  const { document, cut } = parsePage(typeof html === "string" ? html : "");
  const page = readPage(pageUrl, document);
  const readers: { source: OfferSource; read: () => SourceResult | null }[] = [
    { source: "json-ld", read: () => pageProductOffer(jsonLdItems(document), page) },
    { source: "microdata", read: () => pageProductOffer(scopedItems(document, microdata, productTypes), page) },
    { source: "rdfa", read: () => pageProductOffer(scopedItems(document, rdfa, productTypes), page) },
    { source: "meta", read: () => metaOffer(page) },
    { source: "itemprop", read: () => unscopedItemprop(document) },
    ...frameworkStates(document).map((state) => ({ source: state.framework, read: () => stateOffer(stateCandidates(state.data, state.framework), page) })),
    { source: "shopify", read: () => shopifyOffer(document, page) },
    { source: "magento", read: () => decide(magentoPrices(document), page, "Magento final price (data-price-amount)", "medium") },
    { source: "sfcc", read: () => decide(sfccPrices(document), page, "sales price (.prices .sales .value content)", "medium") },
  ];
  const retailer = retailerFor(page.host);
  if (retailer) readers.push({ source: `retailer:${retailer.host}`, read: () => retailerOffer(document, retailer.page) });
  readers.push({ source: "buy-box", read: () => buyBoxOffer(page) });

  // Undecided offers wait for a later source (framework state, platform markup, the buy button)
  // whose price is one of them; a later price that is none of them decides nothing.
  let undecided: { source: OfferSource; result: Extract<SourceResult, { kind: "undecided" }> } | null = null;
  for (const { source, read } of readers) {
    const result = read();
    if (result === null) continue;
    if (undecided === null) {
      if (result.kind === "undecided") undecided = { source, result };
      else return { status: "found", offer: finalOffer(source, shownPrice(onSale(result, page), page), page) };
      continue;
    }
    if (result.kind !== "decided") continue;
    const agreed = undecided.result.candidates.filter((candidate) => candidate.price === result.chosen.price && currencyAgrees(candidate, result.chosen.currency));
    if (agreed.length === 0) continue;
    const chosen = preferBuyable(agreed);
    const rule = `${undecided.result.reason.split(":")[0]} ${chosen.path} matched by ${source}: ${result.rule}`;
    return { status: "found", offer: finalOffer(undecided.source, { kind: "decided", chosen, rule, confidence: "medium", others: undecided.result.candidates }, page) };
  }
  if (undecided) return { status: "undecided", source: undecided.source, reason: undecided.result.reason, candidates: undecided.result.candidates.map(candidateOf) };
  return { status: "none", reason: cut ? `no price found (${cut})` : "no price found on the page" };
}

/**
 * The offer of the page's product, or null when the page shows none, names several prices and
 * nothing on it picks one (see readOffer for the reason and the candidates), or cannot be read.
 * @example extractOffer('<meta property="product:price:amount" content="12.99">', "https://shop.co.uk/p/1")
 * // { price: 1299, currency: "GBP", inStock: null, source: "meta", confidence: "medium", … }
 */
export function extractOffer(html: string, pageUrl: string): ExtractedOffer | null {
  const reading = readOffer(html, pageUrl);
  return reading.status === "found" ? reading.offer : null;
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
  const words = value.slice(0, 300).toLowerCase().replace(/[^a-z]/g, "");
  if (words === "oos") return false;
  if (/outofstock|soldout|unavailable|notavailable|discontinued|notinstock|nostock|preorder|presale|backorder|instoreonly|madetoorder|reserved|availablefororder|hasended|listingended/.test(words)) return false;
  if (/instock|limitedavailability|onlineonly|available|lastone/.test(words)) return true;
  return null;
}

function readPage(pageUrl: string, document: Document): PageContext {
  let url: URL | null = null;
  try {
    url = new URL(pageUrl);
  } catch {
    url = null;
  }
  const headings: { where: string; text: string }[] = [];
  for (const h1 of findElements(document.children, (element) => element.name === "h1", 5)) headings.push({ where: "h1", text: visibleText(h1, 300) });
  let metaTags: Map<string, string> | null = null;
  const meta = () => (metaTags ??= readMetaTags(document));
  const ogTitle = meta().get("og:title");
  if (ogTitle) headings.push({ where: "og:title", text: ogTitle.slice(0, 300) });
  const [title] = findElements(document.children, (element) => element.name === "title", 1);
  if (title) headings.push({ where: "title", text: visibleText(title, 300) });
  let buyBox: BuyBoxPrice | null | undefined;
  return { url, host: url?.hostname ?? "", document, headings, meta, buyBox: () => (buyBox === undefined ? (buyBox = buyBoxPrices(document)) : buyBox) };
}

/** The reading's offer: the page's currency when the source named none, and the evidence. */
function finalOffer(source: OfferSource, result: Extract<SourceResult, { kind: "decided" }>, page: PageContext): ExtractedOffer {
  const { chosen } = result;
  let confidence = result.confidence;
  let rule = result.rule;
  let currency = chosen.currency;
  if (currency === null) {
    if (page.host.endsWith(".uk") || showsPoundSign(page.document)) {
      currency = "GBP";
      rule += "; currency not named, pounds assumed (a .uk shop or a page showing £)";
    } else {
      confidence = "low";
      rule += "; the page names no currency";
    }
  }
  return {
    price: chosen.price,
    currency,
    inStock: chosen.inStock,
    source,
    evidence: { source, rule, snippet: chosen.label ? `${chosen.path}: ${chosen.label}` : chosen.path },
    confidence,
    candidates: result.others.length > 1 ? result.others.map(candidateOf) : [],
  };
}

/**
 * A structured price the page's meta tags call its standard price (`og:price:standard_amount`,
 * `product:original_price:amount`) while they give a lower current price in the same currency:
 * the item is on sale and the meta price is the one to pay.
 */
function onSale(result: Extract<SourceResult, { kind: "decided" }>, page: PageContext): Extract<SourceResult, { kind: "decided" }> {
  const tags = page.meta();
  const standard = parseSchemaPrice(tags.get("og:price:standard_amount") ?? tags.get("product:original_price:amount"), result.chosen.currency);
  if (standard === null || standard !== result.chosen.price) return result;
  const sale = metaOffer(page);
  if (sale?.kind !== "decided" || sale.chosen.price >= standard || !currencyAgrees(result.chosen, sale.chosen.currency)) return result;
  return {
    ...sale,
    chosen: { ...sale.chosen, inStock: sale.chosen.inStock ?? result.chosen.inStock, currency: sale.chosen.currency ?? result.chosen.currency },
    rule: `${result.rule} is the page's standard price; ${sale.rule} gives the sale price`,
  };
}

/**
 * An AggregateOffer's low price is a summary of offers, not an offer: when every buy button on
 * the page stands by one price in the same currency, not a "from" price, and it differs, that
 * price is what the page sells, read from visible text (low confidence: held for review).
 */
function shownPrice(result: Extract<SourceResult, { kind: "decided" }>, page: PageContext): Extract<SourceResult, { kind: "decided" }> {
  if (!result.chosen.from) return result;
  const buyBox = page.buyBox();
  const printed = buyBox?.agreed ? buyBox.printed[0] : undefined;
  if (!printed || printed.price.from || printed.price.range || printed.price.pence === result.chosen.price) return result;
  if (printed.price.currency === null || printed.price.currency !== result.chosen.currency) return result;
  return {
    ...result,
    chosen: { ...result.chosen, price: printed.price.pence, path: "buy box", label: printed.text, from: false },
    rule: `${result.rule} gives a summary low price; the price beside the buy button differs and is taken`,
    confidence: "low",
  };
}

function candidateOf(candidate: Candidate): OfferCandidate {
  return { price: candidate.price, currency: candidate.currency, inStock: candidate.inStock, label: candidate.label ?? candidate.path };
}

// ---------------------------------------------------------------------------------------------
// Deciding among a source's offers by the page's own signals

/**
 * One offer of several, chosen by the page: all give one price; one's URL, SKU or GTIN is the
 * page's (its variant parameter included); one's pack size is the one the h1 (or title) names;
 * one's price is the price printed beside the buy button; the page gives a "from" price equal
 * to the lowest. Offers in pounds are preferred to others. Nothing decides: undecided.
 */
function decide(found: readonly Candidate[], page: PageContext, what: string, confidence: OfferConfidence): SourceResult | null {
  if (found.length === 0) return null;
  const sterling = found.filter((candidate) => candidate.currency === "GBP");
  const pool = sterling.length > 0 && sterling.length < found.length ? sterling : [...found];
  const poolNote = pool.length < found.length ? " (offers in pounds)" : "";
  const decided = (chosen: Candidate, rule: string, level: OfferConfidence): SourceResult => ({ kind: "decided", chosen, rule: `${what}${poolNote}${rule}`, confidence: level, others: pool });
  const oneOf = (matches: Candidate[]) => (matches.length > 0 && new Set(matches.map((candidate) => candidate.price)).size === 1 ? preferBuyable(matches) : null);

  if (pool.length === 1) return decided(pool[0]!, "", confidence);
  const same = oneOf(pool);
  if (same) return decided(same, `, all ${pool.length} offers at one price`, confidence);

  const byAddress = oneOf(pool.filter((candidate) => matchesPageAddress(candidate, page, false)));
  if (byAddress) return decided(byAddress, ` ${byAddress.path} matched by the page URL`, confidence);

  for (const heading of page.headings) {
    const size = packSizeOf(heading.text);
    if (size === null) continue;
    const bySize = oneOf(pool.filter((candidate) => candidateSizes(candidate).some((candidateSize) => sameSize(candidateSize, size))));
    if (bySize) return decided(bySize, ` ${bySize.path} matched by pack size ${size.label} in ${heading.where}`, lower(confidence));
  }

  const buyBox = page.buyBox();
  const printed = !buyBox?.agreed ? undefined : buyBox.printed.find((found) => !found.price.from && !found.price.range && !isCrossedOut(found.element));
  if (printed) {
    const byButton = oneOf(pool.filter((candidate) => candidate.price === printed.price.pence && currencyAgrees(candidate, printed.price.currency)));
    if (byButton) return decided(byButton, ` ${byButton.path} matched by the price beside the buy button (${printed.text})`, lower(confidence));
  }

  const lowest = pool.reduce((low, candidate) => (candidate.price < low.price ? candidate : low));
  const fromSignal = fromPriceSignal(pool, page, lowest);
  if (fromSignal) return decided(preferBuyable(pool.filter((candidate) => candidate.price === lowest.price)), `, the lowest: ${fromSignal}`, lower(confidence));

  const prices = [...new Set(pool.map((candidate) => candidate.price))].length;
  return {
    kind: "undecided",
    candidates: pool,
    reason: `${what}: ${pool.length} offers at ${prices} different prices and nothing on the page picks one (no URL, SKU or pack-size match, no price beside the buy button)`,
  };
}

function lower(confidence: OfferConfidence): OfferConfidence {
  return confidence === "high" ? "medium" : confidence;
}

function preferBuyable(candidates: Candidate[]): Candidate {
  return candidates.find((candidate) => candidate.inStock !== false) ?? candidates[0]!;
}

function currencyAgrees(candidate: Candidate, currency: string | null): boolean {
  return candidate.currency === null || currency === null || candidate.currency === currency;
}

/** Where the page says its price is a starting price equal to the lowest offer, or null. */
function fromPriceSignal(pool: Candidate[], page: PageContext, lowest: Candidate): string | null {
  if (pool.some((candidate) => candidate.from && candidate.price === lowest.price)) return "the page's AggregateOffer lowPrice";
  const printed = page.buyBox()?.printed[0];
  if (printed && (printed.price.from || printed.price.range) && printed.price.pence === lowest.price) return `the buy box says "${printed.text}"`;
  for (const heading of page.headings) {
    const read = parsePriceText(heading.text);
    if (read && read.from && read.pence === lowest.price) return `the ${heading.where} says "${heading.text.trim().slice(0, 80)}"`;
  }
  return null;
}

function candidateSizes(candidate: Candidate): PackSize[] {
  return [...candidate.names, ...candidate.codes].flatMap((text) => {
    const size = packSizeOf(text.replace(/[-_]/g, " "));
    return size ? [size] : [];
  });
}

function sameSize(a: PackSize, b: PackSize): boolean {
  return a.unit === b.unit && a.amount === b.amount;
}

/**
 * A candidate is the page's when one of its addresses is the page's (query included) or one of
 * its codes is a term of the URL. `withSuffix` also lets a code match a URL term that extends it
 * ("7128260" in ".../7128260P", a base product's id in framework state); offers of one product
 * never match so, as their SKUs often extend one another.
 */
function matchesPageAddress(candidate: Candidate, page: PageContext, withSuffix: boolean): boolean {
  if (page.url === null) return false;
  if (candidate.codes.some((code) => /[/.]/.test(code) && sameAddress(code, page, true))) return true;
  const terms = [...page.url.searchParams.values(), ...decodeURIComponent(page.url.pathname).split(/[/]/)].filter((term) => term.length >= 3);
  return candidate.codes.some((code) => {
    const value = code.trim();
    if (value.length < 3 || /[/\s]/.test(value)) return false;
    return terms.some((term) => term === value || (value.length >= 5 && (term.endsWith(`-${value}`) || term.endsWith(`-${value}.html`) || (withSuffix && /^[A-Za-z]{1,2}$/.test(term.slice(value.length)) && term.startsWith(value)))));
  });
}

/** Whether a link (relative to the page) names the page, ignoring the fragment and a trailing slash. */
function sameAddress(link: string, page: PageContext, withQuery: boolean): boolean {
  if (page.url === null) return false;
  const address = (url: URL) => `${url.origin}${url.pathname.replace(/\/$/, "")}${withQuery ? url.search : ""}`;
  try {
    return address(new URL(link, page.url)) === address(page.url);
  } catch {
    return false;
  }
}

// ---------------------------------------------------------------------------------------------
// schema.org items: the product and its offers

const productTypes = ["product", "productgroup", "individualproduct", "productmodel", "someproducts", "vehicle", "car"];

/**
 * The page's product: of the products whose URL is the page's (when any is), the first that
 * carries a price; review widgets add Products with ratings and no offers, and one product can
 * appear twice (in a @graph and as a page's mainEntity). Products nested in another item (related
 * products, ItemList entries) are never candidates. With no product, an item of another type
 * that carries offers (a Book, an Event) is read the same way; then lone Offers, and Offers an
 * item makes (`makesOffer`).
 */
function pageProductOffer(items: Item[], page: PageContext): SourceResult | null {
  const tops = items.flatMap((item) => [item, ...itemValues(item, "mainentity", "mainentityofpage", "about")]).slice(0, 2_000);
  const products = tops.filter((item) => isType(item, ...productTypes));
  const offered = products.length > 0 ? products : tops.filter((item) => !isType(item, "offer", "aggregateoffer") && (item.props.has("offers") || item.props.has("hasvariant")));
  const own = offered.filter((product) => describesPage(product, page));
  for (const product of own.length > 0 ? own : offered) {
    const result = decide(productCandidates(product), page, `${typeName(product)} ${product.path}`, "high");
    if (result) return result;
  }
  if (products.length > 0) return null;
  const loneOffers = [...tops.filter((item) => isType(item, "offer", "aggregateoffer")), ...tops.flatMap((item) => itemValues(item, "makesoffer"))];
  return decide(loneOffers.flatMap((offer) => offerCandidates(offer, identityOf(offer))), page, "lone Offer", "medium");
}

function typeName(item: Item): string {
  const type = item.types[0] ?? "item";
  return type.charAt(0).toUpperCase() + type.slice(1);
}

/** What ties an item to the page: its addresses, ids, SKUs and barcodes; its names and sizes. */
function identityOf(item: Item): { codes: string[]; names: string[] } {
  const codes = [...(item.id === null ? [] : [item.id]), ...["url", "sku", "gtin", "gtin8", "gtin12", "gtin13", "gtin14", "mpn", "productid"].flatMap((name) => itemTexts(item, name))];
  const names = ["name", "size", "weight", "description"].flatMap((name) => itemTexts(item, name).map((text) => text.slice(0, 200)));
  for (const offered of itemValues(item, "itemoffered")) {
    const inner = identityOf(offered);
    codes.push(...inner.codes);
    names.push(...inner.names);
  }
  return { codes, names };
}

/** A product's priced offers: its own offers, and each variant's (`hasVariant`) with the variant's identity. */
function productCandidates(product: Item): Candidate[] {
  const own = identityOf(product);
  const offers = itemValues(product, "offers").flatMap((offer) => offerCandidates(offer, { codes: [], names: [] }));
  const variants = itemValues(product, "hasvariant").slice(0, MAX_VALUES).flatMap((variant) => {
    const identity = identityOf(variant);
    return itemValues(variant, "offers").flatMap((offer) => offerCandidates(offer, identity));
  });
  // A product with no offers is its own offer: its price, or, given only a range's lowPrice, a
  // "from" price as an AggregateOffer's; neither, no candidate.
  if (offers.length === 0 && variants.length === 0) {
    return offerCandidates({ ...product, types: [product.props.has("price") ? "offer" : "aggregateoffer"] }, own);
  }
  // The product's own name applies to its offers only when it has one price to give.
  return [...offers.map((offer) => (offers.length === 1 ? { ...offer, codes: [...offer.codes, ...own.codes], names: [...offer.names, ...own.names] } : offer)), ...variants];
}

/**
 * An offer's candidates: `price`, else the sale price in its `priceSpecification`; an
 * AggregateOffer gives its nested offers when it lists them, else its `lowPrice` as a "from"
 * price. Only MAX_VALUES offers of one item are read.
 */
function offerCandidates(offer: Item, identity: { codes: string[]; names: string[] }): Candidate[] {
  const own = identityOf(offer);
  const codes = [...identity.codes, ...own.codes];
  const names = [...identity.names, ...own.names];
  const label = names[0] ?? null;
  const availability = firstText(offer, "availability");
  const inStock = availability === null ? null : readAvailability(availability);
  if (isType(offer, "aggregateoffer")) {
    const nested = itemValues(offer, "offers").slice(0, MAX_VALUES).flatMap((inner) => offerCandidates(inner, { codes, names }));
    if (nested.length > 0) {
      // An AggregateOffer is a summary: its low price (given, or the lowest it lists) is a "from" price.
      const lowest = nested.reduce((low, candidate) => (candidate.price < low.price ? candidate : low));
      const low = pricedValue(offer, "lowprice") ?? { price: lowest.price, currency: lowest.currency };
      return [...nested, { ...low, inStock, path: `${offer.path} lowPrice`, label, codes, names, from: true }];
    }
    const low = pricedValue(offer, "lowprice") ?? pricedValue(offer, "price");
    return low ? [{ ...low, inStock, path: `${offer.path} lowPrice`, label, codes, names, from: true }] : [];
  }
  const priced = pricedValue(offer, "price") ?? specificationPrice(offer);
  if (priced === null) {
    // An Offer with no price of its own may wrap the priced products it offers (itemOffered).
    const offered = itemValues(offer, "itemoffered").filter((item) => isType(item, ...productTypes)).flatMap(productCandidates);
    return offered.length > 0 ? offered : itemValues(offer, "offers").slice(0, MAX_VALUES).flatMap((inner) => offerCandidates(inner, { codes, names }));
  }
  return [{ ...priced, inStock, path: offer.path, label, codes, names, from: false }];
}

function pricedValue(item: Item, name: string): { price: Pence; currency: string | null } | null {
  const written = firstText(item, name);
  if (written === null) return null;
  const named = parseCurrency(firstText(item, "pricecurrency"));
  const text = parsePriceText(written);
  const currency = named ?? text?.currency ?? null;
  const price = parseSchemaPrice(written, currency);
  return price === null ? null : { price, currency };
}

function specificationPrice(item: Item): { price: Pence; currency: string | null } | null {
  const specification = salePriceSpecification(item, 0);
  if (specification === null) return null;
  const found = pricedValue(specification, "price");
  return found ? { price: found.price, currency: found.currency ?? parseCurrency(firstText(item, "pricecurrency")) } : null;
}

/** `priceType` values of a crossed-out or recommended price, not the price to pay. */
const listPriceTypes = /listprice|strikethroughprice|msrp|srp|invoiceprice|minimumadvertisedprice/i;

/**
 * The price specification a shopper pays: not a list (RRP) or strikethrough price, not a unit
 * price (one with a `referenceQuantity`, such as per kg), not a delivery or payment charge; a
 * compound specification without its own price gives its first such component.
 */
function salePriceSpecification(item: Item, depth: number): Item | null {
  if (depth > 4) return null;
  for (const specification of itemValues(item, "pricespecification", "pricecomponent").slice(0, 50)) {
    if (isType(specification, "deliverychargespecification", "paymentchargespecification")) continue;
    if (listPriceTypes.test(firstText(specification, "pricetype") ?? "")) continue;
    if (specification.props.has("referencequantity")) continue;
    if (firstText(specification, "price") !== null) return specification;
    const component = salePriceSpecification(specification, depth + 1);
    if (component) return component;
  }
  return null;
}

/** An item describes the page when its `@id` or `url` is the page's address, query aside. */
function describesPage(item: Item, page: PageContext): boolean {
  const links = item.id === null ? itemTexts(item, "url") : [item.id, ...itemTexts(item, "url")];
  return links.some((link) => sameAddress(link, page, false));
}

// ---------------------------------------------------------------------------------------------
// Product meta tags (Open Graph and Facebook product tags) and itemprop without a scope

/** Amount and currency tag pairs, the sale price first (Facebook's `product:price` is the regular price). */
const metaPrices = [
  ["product:sale_price:amount", "product:sale_price:currency"],
  ["product:price:amount", "product:price:currency"],
  ["og:price:amount", "og:price:currency"],
] as const;

function readMetaTags(document: Document): Map<string, string> {
  const tags = new Map<string, string>();
  for (const meta of findElements(document.children, (element) => element.name === "meta", 2_000)) {
    const key = (meta.attribs.property ?? meta.attribs.name)?.trim().toLowerCase();
    if (key !== undefined && meta.attribs.content !== undefined && !tags.has(key)) tags.set(key, meta.attribs.content);
  }
  return tags;
}

function metaOffer(page: PageContext): SourceResult | null {
  const tags = page.meta();
  for (const [amountTag, currencyTag] of metaPrices) {
    const written = tags.get(amountTag);
    if (written === undefined) continue;
    const currency = parseCurrency(tags.get(currencyTag) ?? tags.get("product:price:currency") ?? tags.get("og:price:currency"));
    const price = parseSchemaPrice(written, currency);
    if (price === null) continue;
    const availability = tags.get("product:availability") ?? tags.get("og:availability");
    const chosen: Candidate = { price, currency, inStock: availability === undefined ? null : readAvailability(availability), path: `meta ${amountTag}`, label: written, codes: [], names: [], from: false };
    return { kind: "decided", chosen, rule: `product meta tag ${amountTag}`, confidence: "medium", others: [] };
  }
  return null;
}

function unscopedItemprop(document: Document): SourceResult | null {
  const offer = unscopedOffer(document);
  if (offer === null) return null;
  const [chosen] = offerCandidates(offer, { codes: [], names: [] });
  if (chosen === undefined) return null;
  return { kind: "decided", chosen: { ...chosen, label: firstText(offer, "price") ?? firstText(offer, "lowprice") }, rule: "itemprop price without an itemscope", confidence: "medium", others: [] };
}

// ---------------------------------------------------------------------------------------------
// Framework state and Shopify

/**
 * The page's product in framework state: of the objects with a price, those whose id, SKU or
 * address is in the page URL, else whose name is the page's h1; no guess among unmatched ones.
 */
function stateOffer(candidates: Candidate[], page: PageContext): SourceResult | null {
  const byAddress = candidates.filter((candidate) => matchesPageAddress(candidate, page, true));
  const h1 = page.headings.filter((heading) => heading.where === "h1").map((heading) => normaliseName(heading.text));
  const byName = candidates.filter((candidate) => candidate.names.some((name) => h1.includes(normaliseName(name))));
  const own = byAddress.length > 0 ? byAddress : byName;
  if (own.length === 0) return null;
  const rule = byAddress.length > 0 ? "product in the page's state whose id is in the page URL" : "product in the page's state named as the h1";
  return decide(own, page, rule, "medium");
}

function normaliseName(text: string): string {
  return text.toLowerCase().replace(/\s+/g, " ").trim();
}

/**
 * Shopify's variant: the one the page's `?variant=` names, else (no variant named) the first
 * available, which is the one Shopify shows selected.
 */
function shopifyOffer(document: Document, page: PageContext): SourceResult | null {
  const variants = shopifyVariants(document);
  if (variants.length === 0) return null;
  const currency = shopifyCurrency(document) ?? parseCurrency(page.meta().get("og:price:currency") ?? page.meta().get("product:price:currency"));
  const priced = variants.map((variant) => ({ ...variant, currency }));
  const named = page.url?.searchParams.get("variant");
  if (named) {
    const chosen = priced.find((variant) => variant.codes.includes(named));
    if (chosen) return { kind: "decided", chosen, rule: `Shopify product JSON ${chosen.path} named by ?variant=${named}`, confidence: "high", others: priced };
  }
  const decided = decide(priced, page, "Shopify product JSON", "medium");
  if (decided?.kind === "decided" || named) return decided;
  const chosen = priced.find((variant) => variant.inStock !== false) ?? priced[0]!;
  return { kind: "decided", chosen, rule: `Shopify product JSON ${chosen.path}: no ?variant=, the first available variant is the one the page shows`, confidence: "medium", others: priced };
}

// ---------------------------------------------------------------------------------------------
// Retailers' own price elements and the buy button

interface RetailerPage {
  price: Selector[];
  stock: Selector[];
}

/** Parsed selectors of each registry entry's hints, parsed once per hints object. */
const parsedHints = new WeakMap<ExtractionHints, RetailerPage>();

/**
 * Where the retailer at `host` prints the product's price and stock (from the retailer registry),
 * scoped to the product panel so carousel tiles ("from £3.49") never match.
 */
function retailerFor(host: string): { host: string; page: RetailerPage } | null {
  const found = extractionHintsFor(host);
  if (found === null) return null;
  let page = parsedHints.get(found.hints);
  if (page === undefined) {
    page = { price: parseSelectors(found.hints.price), stock: parseSelectors(found.hints.stock) };
    parsedHints.set(found.hints, page);
  }
  return { host: found.host, page };
}

/**
 * The first match of the retailer's price selectors that reads as a price; a crossed-out match
 * is skipped and crossed-out text inside a match is not read, so RRPs and was-prices never win.
 */
function retailerOffer(document: Document, retailer: RetailerPage): SourceResult | null {
  for (const selector of retailer.price) {
    for (const element of select(document, selector)) {
      if (isCrossedOut(element)) continue;
      // Magento prints the amount as a number in data-price-amount; otherwise read the shop's text.
      const amount = element.attribs["data-price-amount"];
      const text = visibleText(element, 200).replace(/\s+/g, " ").trim();
      const read = amount === undefined ? parsePriceText(text) : { pence: parseSchemaPrice(amount), currency: null };
      if (read === null || read.pence === null) continue;
      const stock = retailer.stock.flatMap((stockSelector) => select(document, stockSelector, 1))[0];
      const chosen: Candidate = {
        price: read.pence,
        currency: read.currency,
        inStock: stock ? readAvailability(visibleText(stock, 300)) : null,
        path: selector.map((step) => `${step.attribute}=${step.value}`).join(" "),
        label: amount ?? text,
        codes: [],
        names: [],
        from: false,
      };
      return { kind: "decided", chosen, rule: "the retailer's price element (registry hint)", confidence: "medium", others: [] };
    }
  }
  return null;
}

/**
 * The first price printed beside the buy button, when every buy button on the page stands by the
 * same price (a listing's buttons do not): a visible-text reading, held for review.
 */
function buyBoxOffer(page: PageContext): SourceResult | null {
  const buyBox = page.buyBox();
  const printed = buyBox?.agreed ? buyBox.printed[0] : undefined;
  if (!printed) return null;
  const chosen: Candidate = { price: printed.price.pence, currency: printed.price.currency, inStock: null, path: "buy box", label: printed.text, codes: [], names: [], from: printed.price.from };
  return { kind: "decided", chosen, rule: "the price printed beside the buy button", confidence: "low", others: [] };
}
