/**
 * The product-feed layouts the site reads, as data: which column (or XML element) holds each of
 * our fields in each layout, how a layout is recognised from its columns, and the rules a layout
 * has beyond plain columns (Google's sale price dates and per-country shipping). Pure: the
 * readers in data/feeds/ find the columns and cells; this module says what they mean.
 *
 * Every layout is turned into the one record parseFeedCells reads (Awin's publisher column names),
 * so every layout gets the same checks and the same FeedOffer: pence, GBP only, barcodes
 * normalised, pack size, delivery for one item, stock.
 */
import { headerProblem, legalCategoryColumns, normaliseHeaderName, parsePrice, type FeedRowContext } from "./feed-row.ts";

/**
 * - awin-publisher: Awin's product-data download for publishers (aw_deep_link, search_price, ...),
 *   one file for many merchants;
 * - awin-merchant: the layout a merchant uploads to Awin (product_id, product_url, price, ...);
 * - google-merchant: Google Merchant Center (id, title, link, price "12.99 GBP", shipping, ...),
 *   as TSV/CSV or as RSS 2.0 / Atom XML with the g: namespace;
 * - mapped: any other CSV (CJ, Rakuten, Tradedoubler, Webgains, Paid On Results) read through
 *   the column mapping the site owner sets.
 */
export type FeedLayout = "awin-publisher" | "awin-merchant" | "google-merchant" | "mapped";

export const feedFields = [
  "name",
  "price",
  "link",
  "currency",
  "salePrice",
  "originalPrice",
  "delivery",
  "inStock",
  "externalId",
  "gtin",
  "mpn",
  "brand",
  "image",
  "description",
  "category",
  "merchantName",
  "merchantId",
  "legalCategory",
] as const;
export type FeedField = (typeof feedFields)[number];
/** Our field -> the feed's column (header name as written) for the "mapped" layout. */
export type ColumnMapping = Partial<Record<FeedField, string>>;

/** What a mapped feed must have a column for; every layout needs them. */
export const requiredFeedFields = ["name", "price", "link"] as const satisfies readonly FeedField[];

/**
 * Fields only the built-in layouts read: Google's sale dates, the item's condition, the product's
 * measure (Google's unit_pricing_measure, "2kg"), its variant group and a tracked link.
 */
type ExtraField = "saleDates" | "condition" | "measure" | "groupId" | "affiliateLink";
export type LayoutField = FeedField | ExtraField;
/** A layout's record: field -> the cell's text. */
export type LayoutRecord = Partial<Record<LayoutField, string>>;
/** Field -> the column (normalised header name, or XML element name) that holds it. */
export type ResolvedColumns = Partial<Record<LayoutField, string>>;

interface LayoutSpec {
  /** How the layout is named to the site owner. */
  label: string;
  /** Each field's column, by the names the layout uses for it, the first present one wins. */
  columns: Partial<Record<LayoutField, readonly string[]>>;
}

/** The built-in layouts other than Awin's publisher download (whose names are parseFeedCells's own). */
const layoutSpecs: Readonly<Record<"awin-merchant" | "google-merchant", LayoutSpec>> = {
  "awin-merchant": {
    label: "the Awin merchant upload layout",
    columns: {
      externalId: ["product_id", "pid"],
      name: ["product_name", "name"],
      description: ["description", "desc"],
      link: ["product_url", "deep_link", "purl"],
      image: ["image_url", "imgurl", "large_image"],
      price: ["price"],
      currency: ["currency"],
      originalPrice: ["rrp_price", "rrp", "was_price"],
      delivery: ["delivery_cost", "shipping_cost"],
      brand: ["brand", "brand_name"],
      category: ["category", "product_type"],
      gtin: ["ean", "gtin", "upc"],
      mpn: ["mpn"],
      inStock: ["in_stock", "stock_status"],
      condition: ["condition"],
      merchantName: ["merchant_name"],
      groupId: ["parent_product_id"],
      legalCategory: legalCategoryColumns,
    },
  },
  "google-merchant": {
    label: "a Google Merchant Center feed",
    columns: {
      externalId: ["id"],
      name: ["title"],
      description: ["description", "summary"],
      link: ["link"],
      image: ["image_link"],
      price: ["price"],
      salePrice: ["sale_price"],
      saleDates: ["sale_price_effective_date"],
      inStock: ["availability"],
      gtin: ["gtin", "ean", "upc"],
      mpn: ["mpn"],
      brand: ["brand"],
      condition: ["condition"],
      delivery: ["shipping"],
      category: ["product_type", "google_product_category"],
      groupId: ["item_group_id"],
      measure: ["unit_pricing_measure"],
      legalCategory: legalCategoryColumns,
    },
  },
};

/** Awin's publisher download: the price columns parseFeedCells tries, and its link columns. */
const awinPublisherColumns: Partial<Record<LayoutField, readonly string[]>> = {
  name: ["product_name"],
  price: ["search_price", "store_price", "display_price"],
  link: ["merchant_deep_link", "aw_deep_link"],
};
/** Columns only Awin's publisher download has. */
const awinPublisherMarks = ["aw_deep_link", "aw_product_id", "aw_image_url", "merchant_deep_link", "search_price", "store_price", "display_price", "data_feed_id"];
/** Columns that, with title, say Google Merchant Center. */
const googleMarks = ["id", "link", "price", "image_link", "availability", "google_product_category", "gtin", "sale_price", "shipping", "condition", "item_group_id"];

/** How each layout is named to the site owner ("Google Merchant Center"), for sniffing and messages. */
export const layoutLabels: Readonly<Record<FeedLayout, string>> = {
  "awin-publisher": "an Awin publisher feed",
  "awin-merchant": layoutSpecs["awin-merchant"].label,
  "google-merchant": layoutSpecs["google-merchant"].label,
  mapped: "a feed read through its column mapping",
};

/** Each layout's name in a feed's description ("Google Merchant Center XML (RSS 2.0)"). */
export const layoutTitles: Readonly<Record<FeedLayout, string>> = {
  "awin-publisher": "Awin publisher feed",
  "awin-merchant": "Awin merchant upload",
  "google-merchant": "Google Merchant Center",
  mapped: "Mapped feed",
};

/** A header name as matched: normalised, and Google's "g:" prefix dropped ("g:price" = "price"). */
export function columnKey(name: string): string {
  return normaliseHeaderName(name).replace(/^g:/, "");
}

/**
 * The layout a header is in, or null when none fits: Awin's publisher download by a column only it
 * has (search_price, aw_deep_link, merchant_deep_link, ...); Google Merchant Center by title with
 * two of id, link, price, image_link, availability, ...; the Awin merchant upload by product_url,
 * or by price with product_name or product_id.
 * @example detectLayout(["id", "title", "link", "price"]) // "google-merchant"
 */
export function detectLayout(columns: readonly string[]): Exclude<FeedLayout, "mapped"> | null {
  const names = new Set(columns.map(columnKey));
  if (awinPublisherMarks.some((name) => names.has(name))) return "awin-publisher";
  if (names.has("title") && googleMarks.filter((name) => names.has(name)).length >= 2) return "google-merchant";
  if (names.has("product_url") || (names.has("price") && (names.has("product_name") || names.has("product_id")))) return "awin-merchant";
  return null;
}

/** Every name any layout uses for a field, for messages ("price, search_price, ..."). */
function knownNamesOf(field: LayoutField): string[] {
  const names = [...(layoutSpecs["google-merchant"].columns[field] ?? []), ...(layoutSpecs["awin-merchant"].columns[field] ?? []), ...(awinPublisherColumns[field] ?? [])];
  return [...new Set(names)];
}

const fieldWords: Readonly<Record<(typeof requiredFeedFields)[number], string>> = { name: "a name column", price: "a price column", link: "a link column" };

/** "a, b, c" for the first `max` names, then "..." with how many more. */
function listColumns(columns: readonly string[], max = 12): string {
  const shown = columns.slice(0, max).join(", ");
  return columns.length > max ? `${shown}, ... (${columns.length} columns)` : shown;
}

/** "a, b and c". */
function inWords(parts: readonly string[]): string {
  return parts.length <= 1 ? (parts[0] ?? "") : `${parts.slice(0, -1).join(", ")} and ${parts.at(-1)}`;
}

/**
 * Why a table no layout fits cannot be read: what it is, its columns and which of the required
 * columns no layout finds in it. `what` names the file ("a CSV", "a TSV").
 * @example noLayoutProblem("a CSV", ["a", "b"]) // "This file is not a product feed this site can read: it is a CSV whose columns are a, b: it lacks a name column (title, product_name, name), ..."
 */
export function noLayoutProblem(what: string, columns: readonly string[]): string {
  const names = new Set(columns.map(columnKey));
  const lacking = requiredFeedFields.filter((field) => !knownNamesOf(field).some((name) => names.has(name)));
  const lacks =
    lacking.length > 0
      ? `it lacks ${inWords(lacking.map((field) => `${fieldWords[field]} (${knownNamesOf(field).join(", ")})`))}`
      : "its columns fit none of the layouts this site knows (Awin, Google Merchant Center)";
  return `This file is not a product feed this site can read: it is ${what} whose columns are ${listColumns(columns)}: ${lacks}. If it is a product feed, set a column mapping for it.`;
}

export type LayoutResolution = { columns: ResolvedColumns; problem: null } | { columns: null; problem: string };

/**
 * Which column holds each field for `layout` in a table with these columns (names as written),
 * or why the table cannot be read in that layout: a required column missing, a mapped column the
 * table does not have, or no merchant (no merchant column and no retailer for the source).
 * For awin-publisher the columns are parseFeedCells's own, so `columns` is empty and only the
 * header is checked.
 */
export function resolveLayout(layout: FeedLayout, header: readonly string[], mapping: ColumnMapping | undefined, context: FeedRowContext = {}): LayoutResolution {
  const keys = header.map(columnKey);
  const present = new Set(keys);
  if (layout === "awin-publisher") {
    const problem = headerProblem(header, context);
    return problem === null ? { columns: {}, problem: null } : { columns: null, problem };
  }
  const columns: ResolvedColumns = {};
  if (layout === "mapped") {
    if (mapping === undefined) return { columns: null, problem: "A mapped feed needs its column mapping (which column holds the name, the price and the link)" };
    for (const [field, column] of Object.entries(mapping) as [FeedField, string | undefined][]) {
      if (column === undefined || column.trim() === "") continue;
      if (!(feedFields as readonly string[]).includes(field)) return { columns: null, problem: `The column mapping names an unknown field "${field}"` };
      const key = columnKey(column);
      if (!present.has(key)) {
        return { columns: null, problem: `The column mapping reads ${field} from "${column}", but the feed has no such column (its columns are ${listColumns(header)})` };
      }
      columns[field] = key;
    }
    const missing = requiredFeedFields.filter((field) => columns[field] === undefined);
    if (missing.length > 0) return { columns: null, problem: `The column mapping sets no column for ${inWords(missing)} (required)` };
  } else {
    const spec = layoutSpecs[layout];
    for (const [field, names] of Object.entries(spec.columns) as [LayoutField, readonly string[]][]) {
      const found = names.find((name) => present.has(name));
      if (found !== undefined) columns[field] = found;
    }
    const missing = requiredFeedFields.filter((field) => columns[field] === undefined);
    if (missing.length > 0) {
      const lacks = inWords(missing.map((field) => `${fieldWords[field]} (${spec.columns[field]!.join(", ")})`));
      return { columns: null, problem: `This file looks like ${spec.label} but it lacks ${lacks}; its columns are ${listColumns(header)}` };
    }
  }
  const noMerchant = merchantProblem(layout, columns, context);
  return noMerchant === null ? { columns, problem: null } : { columns: null, problem: noMerchant };
}

/**
 * Why a layout's rows can have no merchant, or null: the layout reads no merchant column and the
 * source names no retailer (a merchant's own feed, Google's or Awin's upload, is one retailer's).
 */
export function merchantProblem(layout: FeedLayout, columns: Partial<Record<LayoutField, unknown>>, context: FeedRowContext): string | null {
  if (columns.merchantName !== undefined || columns.merchantId !== undefined || context.retailerKey) return null;
  return `This feed (${layoutLabels[layout]}) names no merchant: set the retailer its source belongs to`;
}

/** Each field's columns (by columnKey), the first non-empty one wins: see layoutRecordOf. */
export type LayoutColumns = Partial<Record<LayoutField, readonly string[]>>;

/**
 * The columns a layout reads each field from: the built-in layout's names, or the mapping's one
 * column per field. Not for awin-publisher, whose columns parseFeedCells reads itself.
 */
export function layoutColumns(layout: Exclude<FeedLayout, "awin-publisher">, mapping?: ColumnMapping): LayoutColumns {
  if (layout !== "mapped") return layoutSpecs[layout].columns;
  const columns: Record<string, readonly string[]> = {};
  for (const [field, column] of Object.entries(mapping ?? {})) {
    if (column !== undefined && column.trim() !== "") columns[field] = [columnKey(column)];
  }
  return columns;
}

/** Every column a layout may read, to keep only those cells. */
export function columnsRead(columns: LayoutColumns): Set<string> {
  return new Set(Object.values(columns).flat());
}

/**
 * A row's cells (by columnKey) as a layout record: each field from the first of its columns with
 * a non-blank cell.
 */
export function layoutRecordOf(columns: LayoutColumns, cells: Readonly<Record<string, string | undefined>>): LayoutRecord {
  const record: LayoutRecord = {};
  for (const field in columns) {
    for (const column of columns[field as LayoutField]!) {
      const value = cells[column];
      if (value !== undefined && value.trim() !== "") {
        record[field as LayoutField] = value;
        break;
      }
    }
  }
  return record;
}

// ---------------------------------------------------------------------------------------------
// Google Merchant Center's rules

/** "2026-11-01T00:00+0100" -> "2026-11-01T00:00+01:00", which Date.parse reads. */
function isoDate(text: string): number {
  return Date.parse(text.trim().replace(/([+-]\d{2})(\d{2})$/, "$1:$2"));
}

/**
 * Whether a sale price applies at `now` by its sale_price_effective_date ("start/end", ISO 8601):
 * with no date it always applies; with dates, from start to end inclusive (an open end when only
 * a start is given); dates that cannot be read mean it does not apply (the regular price is the
 * one the shop surely charges).
 * @example saleApplies("2026-11-01T00:00Z/2026-11-30T23:59Z", new Date("2026-11-20T03:00Z")) // true
 */
export function saleApplies(dates: string | undefined, now: Date): boolean {
  const text = dates?.trim() ?? "";
  if (text === "") return true;
  const [start = "", end] = text.split("/");
  const from = isoDate(start);
  const to = end === undefined || end.trim() === "" ? Number.POSITIVE_INFINITY : isoDate(end);
  if (Number.isNaN(from) || Number.isNaN(to)) return false;
  return from <= now.getTime() && now.getTime() <= to;
}

/** Countries whose shipping entry is delivery to a UK address ("" is Google's "every country"). */
const ukCountries = new Set(["GB", "UK", ""]);

/**
 * The delivery text of a Google shipping value for one item to the UK: entries
 * "country:region:service:price" separated by commas (as TSV writes them, and as the XML reader
 * writes each <g:shipping>). The cheapest GB entry for the whole country (no region) is the
 * delivery; entries only for other countries, or only for a region, leave it unknown (""). Text
 * that is not in that form (a plain "3.99") is returned as it is.
 * @example shippingText("GB:::3.99 GBP,IE:::9.99 EUR") // "3.99 GBP"
 * @example shippingText("US::Standard:0 USD") // ""
 */
export function shippingText(raw: string | undefined): string | undefined {
  if (raw === undefined || !/^\s*[A-Za-z]{0,2}\s*:/.test(raw)) return raw;
  let best: { text: string; pence: number } | null = null;
  for (const entry of raw.split(/,(?=\s*[A-Za-z]{0,2}\s*:)/)) {
    const [country = "", region = "", , ...rest] = entry.split(":");
    const price = rest.join(":").trim();
    if (!ukCountries.has(country.trim().toUpperCase()) || region.trim() !== "" || price === "") continue;
    const parsed = parsePrice(price);
    if (parsed === null || (parsed.currency !== null && parsed.currency !== "GBP") || parsed.pence < 0) continue;
    if (best === null || parsed.pence < best.pence) best = { text: price, pence: parsed.pence };
  }
  return best?.text ?? "";
}

/**
 * One <g:shipping> group of an XML feed as a shipping entry "country:region:service:price"
 * (region: the region, else the postal code, else the location id).
 */
export function shippingEntry(group: Readonly<Record<string, string>>): string {
  const region = group.region ?? group.postal_code ?? group.location_id ?? group.location_group_name ?? "";
  return [group.country ?? "", region, group.service ?? "", group.price ?? ""].map((part) => part.replace(/[:,]/g, " ").trim()).join(":");
}

/**
 * A layout record as the record parseFeedCells reads (Awin's publisher column names): the sale
 * price, when it applies (see saleApplies) and is a price below the regular one, becomes the
 * price and the regular price the original; Google shipping becomes one delivery text (see
 * shippingText); the measure is read as a pack size when the name states none.
 */
export function awinCellsOf(record: LayoutRecord, now: Date): Record<string, string | undefined> {
  let price = record.price;
  let original = record.originalPrice;
  const sale = record.salePrice?.trim();
  if (sale && price !== undefined && saleApplies(record.saleDates, now)) {
    const salePence = parsePrice(sale);
    const regularPence = parsePrice(price);
    if (salePence !== null && salePence.pence > 0 && (regularPence === null || salePence.pence < regularPence.pence)) {
      original = price;
      price = sale;
    }
  }
  return {
    product_name: record.name,
    search_price: price,
    rrp_price: original,
    currency: record.currency,
    merchant_deep_link: record.link,
    aw_deep_link: record.affiliateLink,
    delivery_cost: shippingText(record.delivery),
    in_stock: record.inStock,
    merchant_product_id: record.externalId,
    ean: record.gtin,
    mpn: record.mpn,
    brand_name: record.brand,
    merchant_image_url: record.image,
    description: record.description,
    merchant_category: record.category,
    merchant_name: record.merchantName,
    merchant_id: record.merchantId,
    condition: record.condition,
    base_price_text: record.measure,
    parent_product_id: record.groupId,
    legal_category: record.legalCategory,
  };
}
