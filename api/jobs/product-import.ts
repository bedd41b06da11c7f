/**
 * Imports a product source's offers into the catalogue, through the catalogue writer only.
 *
 * Rules:
 * - A row's merchant must be a retailer whose prices the site compares (matched by retailer key,
 *   else by its name, a feed name or a network merchant id stored for it); other rows are
 *   reported and skipped.
 * - A row matches an existing product by GTIN, then by MPN + brand, then by normalised brand +
 *   name + pack size. A matched product is "skipped (already exists)"; its offer at that retailer
 *   takes the row's price as a price check (published, confirmed or held for review), or is
 *   added when the product has none there: held for review too when its price is beyond the hold
 *   factor of the product's best price. An offer's URL must be on its retailer's hosts.
 * - An unmatched row creates a product only when the source is configured to; it goes into the
 *   category its feed category maps to (no mapping: reported, not imported). The first 6
 *   products created by a run are featured, prescription-only medicines (POM-V, POM-VPS) never
 *   (they neither are featured nor use up a featured place); the row's merchant (for the
 *   best-seller source, the marketplace) is the product's first and primary retailer.
 * - A row's legal category (legal_category, vmd_category or distribution_category) is the new
 *   product's; a matched product whose category is none takes it, one already set keeps its own.
 *   A category no one knows makes the row malformed.
 * - A malformed row is reported with its line number and skipped; it never stops the import, and
 *   each product is written whole or not at all. Re-running the same import changes nothing.
 * - Messages are kept up to a cap (the count is exact), so a 200 MB feed cannot fill memory.
 */
import type { Db } from "../../data/db/client.ts";
import { isChange, mergeChanges, WriteRefused, type CatalogueChange } from "../../data/db/catalogue-writer/transaction.ts";
import { adoptFeedImages, adoptFeedLegalCategories, createProduct } from "../../data/db/catalogue-writer/products.ts";
import { addOffer, recordPriceChecks, type PriceCheck } from "../../data/db/price-writer.ts";
import { defaultHoldPolicy, type HoldPolicy } from "../../data/domain/price-hold.ts";
import { productInput } from "../../data/domain/catalogue-input.ts";
import { foodSpeciesOf } from "../../data/domain/food.ts";
import { dietsIn } from "../../data/domain/food-facts.ts";
import { slugify } from "../../data/domain/slug.ts";
import { featuredPerImport } from "../../data/domain/product-import.ts";
import { matchKey, type FeedOffer } from "../../data/domain/feed-row.ts";
import { categoryForFeed, type CategoryRef } from "../../data/domain/import-category.ts";
import { compactName } from "../../data/domain/retailers.ts";
import { storedTextList } from "../../data/db/catalogue.ts";
import type { FeedItem } from "../../data/domain/feed-row.ts";
import type { RefusalCounts, RefusalReason, RunCounters } from "../../data/domain/feed-sources.ts";
import { isPrescriptionOnly, type LegalCategory } from "../../data/domain/legal-category.ts";

export interface ImportSource {
  /** Short name, stored as the offers' source (feed:<name>). */
  name: string;
  /** Whether rows that match no product create one. */
  createProducts: boolean;
}

export interface ImportOptions {
  source: ImportSource;
  policy?: HoldPolicy;
  /** How many of the products a run creates are featured (`featuredPerImport` unless a caller says). */
  featuredFirst?: number;
  /** Messages kept for the result (the count is always exact). */
  maxMessages?: number;
  now?: () => Date;
  /**
   * Called once at the start with a function that reads the counters so far, at any time, so a
   * caller can store them on its own clock (not on every row).
   */
  watch?: (counters: () => RunCounters) => void;
}

export interface ImportSummary {
  /** Products created. */
  success: number;
  /** One message per row not imported as a new product (existing, malformed, unknown merchant...). */
  errors: string[];
  /** How many messages there were (errors holds at most maxMessages of them). */
  totalErrors: number;
  rows: number;
  created: number;
  existing: number;
  offersAdded: number;
  pricesChanged: number;
  held: number;
  /** Rows that matched no product, from a source that does not create products. */
  unmatched: number;
  /** Malformed rows, unknown merchants, unmapped categories. */
  rejected: number;
  /** The rejected rows by reason. */
  refused: RefusalCounts;
  change: CatalogueChange;
}

interface ProductIndex {
  byGtin: Map<string, number>;
  byMpn: Map<string, number>;
  byKey: Map<string, number>;
  slugs: Set<string>;
  /** Offers that exist, as `${productId}:${retailerId}`. */
  offers: Set<string>;
}

const mpnKey = (mpn: string, brand: string | null) => `${mpn.toLowerCase().replace(/[^a-z0-9]/g, "")}|${(brand ?? "").toLowerCase().trim()}`;

function loadIndex(db: Db): ProductIndex {
  const index: ProductIndex = { byGtin: new Map(), byMpn: new Map(), byKey: new Map(), slugs: new Set(), offers: new Set() };
  const products = db.$client.prepare<unknown[], {
    id: number;
    name: string;
    slug: string;
    brand: string | null;
    gtin: string | null;
    mpn: string | null;
  }>("SELECT id, name, slug, brand, gtin, mpn FROM products ORDER BY id").all();
  for (const product of products) remember(index, product.id, product);
  for (const offer of db.$client.prepare("SELECT product_id, retailer_id FROM product_prices").raw().all() as [number, number][]) {
    index.offers.add(`${offer[0]}:${offer[1]}`);
  }
  return index;
}

function remember(index: ProductIndex, id: number, product: { name: string; slug: string; brand: string | null; gtin: string | null; mpn: string | null }) {
  if (product.gtin && !index.byGtin.has(product.gtin)) index.byGtin.set(product.gtin, id);
  if (product.mpn && !index.byMpn.has(mpnKey(product.mpn, product.brand))) index.byMpn.set(mpnKey(product.mpn, product.brand), id);
  const key = matchKey(product.brand, product.name);
  if (!index.byKey.has(key)) index.byKey.set(key, id);
  index.slugs.add(product.slug);
}

function findProduct(index: ProductIndex, offer: FeedOffer): number | undefined {
  if (offer.gtin) {
    const id = index.byGtin.get(offer.gtin);
    if (id !== undefined) return id;
  }
  if (offer.mpn && offer.brand) {
    const id = index.byMpn.get(mpnKey(offer.mpn, offer.brand));
    if (id !== undefined) return id;
  }
  return index.byKey.get(matchKey(offer.brand, offer.name));
}

/** A slug not yet taken: the name's, else with the barcode's tail or a counter. */
function freeSlug(index: ProductIndex, offer: FeedOffer): string {
  const base = slugify(offer.name);
  if (!index.slugs.has(base)) return base;
  if (offer.gtin && !index.slugs.has(`${base}-${offer.gtin.slice(-6)}`)) return `${base}-${offer.gtin.slice(-6)}`;
  for (let n = 2; ; n += 1) if (!index.slugs.has(`${base}-${n}`)) return `${base}-${n}`;
}

const pounds = (pence: number) => (pence / 100).toFixed(2);
const checkBatch = 500;

export async function importFeed(db: Db, items: AsyncIterable<FeedItem>, options: ImportOptions): Promise<ImportSummary> {
  const now = options.now ?? (() => new Date());
  const policy = options.policy ?? defaultHoldPolicy;
  const featuredFirst = options.featuredFirst ?? featuredPerImport;
  const maxMessages = options.maxMessages ?? 100;
  const sourceTag = `feed:${options.source.name}`;
  const summary: ImportSummary = {
    success: 0,
    errors: [],
    totalErrors: 0,
    rows: 0,
    created: 0,
    existing: 0,
    offersAdded: 0,
    pricesChanged: 0,
    held: 0,
    unmatched: 0,
    rejected: 0,
    refused: {},
    change: { productIds: [], categoryIds: [], siteWide: false },
  };
  const changes: CatalogueChange[] = [];
  const refuse = (reason: RefusalReason) => {
    summary.rejected += 1;
    summary.refused[reason] = (summary.refused[reason] ?? 0) + 1;
  };
  const report = (message: string) => {
    summary.totalErrors += 1;
    if (summary.errors.length < maxMessages) summary.errors.push(message);
  };

  const retailerRows = db.$client.prepare<unknown[], {
    id: number;
    key: string;
    name: string;
    compares_prices: number;
    feed_names: string;
  }>("SELECT id, key, name, compares_prices, feed_names FROM retailers").all();
  const retailers = new Map(retailerRows.map((row) => [row.key, row]));
  // A merchant the registry does not know is found by its name, or by a feed name or network
  // merchant id (Awin's merchant_id) the site owner stored for it.
  const retailersByName = new Map(
    retailerRows.flatMap((row) => [row.name, ...storedTextList(row.feed_names)].map((name) => [compactName(name), row] as const)),
  );
  const categories = db.$client.prepare<unknown[], CategoryRef>("SELECT id, name, slug FROM categories ORDER BY id").all();
  const index = loadIndex(db);
  let pending: PriceCheck[] = [];
  /** The first feed image of each matched product: taken by those without an image of their own. */
  const feedImages = new Map<number, string>();
  /** The first legal category a feed row states for each matched product: taken by those without one. */
  const feedLegalCategories = new Map<number, LegalCategory>();
  /** Products this run created featured (prescription-only medicines are never featured). */
  let featured = 0;
  const flush = () => {
    if (pending.length === 0) return;
    const { value, change } = recordPriceChecks(db, pending, policy, now());
    summary.pricesChanged += value.changed;
    summary.held += value.held;
    if (isChange(change)) changes.push(change);
    pending = [];
  };

  options.watch?.(() => countersOf(summary));

  for await (const item of items) {
    summary.rows += 1;
    if (item.kind === "error") {
      refuse("malformed");
      report(item.error.startsWith("line ") ? item.error : `line ${item.line}: ${item.error}`);
      continue;
    }
    const offer = item.offer;
    const retailer =
      retailers.get(offer.merchantKey) ?? retailersByName.get(compactName(offer.merchantName)) ?? (offer.merchantId ? retailersByName.get(compactName(offer.merchantId)) : undefined);
    if (!retailer || retailer.compares_prices !== 1) {
      refuse("retailer-not-compared");
      report(`line ${offer.line}: "${offer.name}" is sold by ${offer.merchantName || "an unknown merchant"}, a retailer whose prices we do not compare (not imported)`);
      continue;
    }
    const productId = findProduct(index, offer);
    if (productId !== undefined) {
      summary.existing += 1;
      report(`Skipped "${offer.name}": it already exists`);
      // A refused row gives nothing, not even its image or legal category.
      const takeImage = () => {
        if (offer.image && !feedImages.has(productId)) feedImages.set(productId, offer.image);
        if (offer.legalCategory !== undefined && offer.legalCategory !== "none" && !feedLegalCategories.has(productId)) feedLegalCategories.set(productId, offer.legalCategory);
      };
      if (index.offers.has(`${productId}:${retailer.id}`)) {
        takeImage();
        pending.push({
          productId,
          retailerId: retailer.id,
          pricePence: offer.pricePence,
          originalPricePence: offer.originalPricePence,
          inStock: offer.inStock,
          deliveryPence: offer.deliveryPence,
          source: sourceTag,
          repeatPricePence: offer.repeatPricePence,
          repeatTerms: offer.repeatTerms,
          multiBuy: offer.multiBuy,
          memberPricePence: offer.memberPricePence,
          memberScheme: offer.memberScheme,
        });
        if (pending.length >= checkBatch) flush();
      } else {
        try {
          const { value, change } = addOffer(
            db,
            {
              productId,
              retailerId: retailer.id,
              url: offer.url,
              pricePence: offer.pricePence,
              originalPricePence: offer.originalPricePence,
              inStock: offer.inStock ?? true,
              deliveryPence: offer.deliveryPence,
              source: sourceTag,
              repeatPricePence: offer.repeatPricePence,
              repeatTerms: offer.repeatTerms,
              multiBuy: offer.multiBuy,
              memberPricePence: offer.memberPricePence,
              memberScheme: offer.memberScheme,
            },
            now(),
            policy,
          );
          takeImage();
          if (value.held) {
            summary.held += 1;
          } else {
            index.offers.add(`${productId}:${retailer.id}`);
            summary.offersAdded += 1;
          }
          changes.push(change);
        } catch (error) {
          if (!(error instanceof WriteRefused)) throw error;
          report(`line ${offer.line}: ${error.message}`);
        }
      }
      continue;
    }
    if (!options.source.createProducts) {
      summary.unmatched += 1;
      continue;
    }
    const category = categoryForFeed(offer.categoryName, categories);
    if (!category) {
      refuse("no-category");
      report(`line ${offer.line}: "${offer.name}" is in the feed category "${offer.categoryName}", which matches no catalogue category (not imported)`);
      continue;
    }
    const parsed = productInput.safeParse({
      name: offer.name,
      slug: freeSlug(index, offer),
      description: offer.description,
      // The special diets a food's maker claims in the feed's description ("grain free"): stated
      // on the product, as its name often leaves them out.
      specialDiets: foodSpeciesOf(category.slug) === null ? "" : dietsIn(offer.description).join(","),
      image: offer.image,
      brand: offer.brand,
      categoryId: category.id,
      // A feed carries no ratings: none are invented.
      rating: null,
      reviewCount: 0,
      isFeatured: featured < featuredFirst && !isPrescriptionOnly(offer.legalCategory),
      legalCategory: offer.legalCategory ?? "none",
      retailerLinks: [
        {
          retailerId: retailer.id,
          affiliateUrl: offer.url,
          price: pounds(offer.pricePence),
          originalPrice: offer.originalPricePence !== null && offer.originalPricePence > offer.pricePence ? pounds(offer.originalPricePence) : null,
          inStock: offer.inStock ?? true,
          freeDelivery: offer.deliveryPence === 0,
          repeatPrice: (offer.repeatPricePence ?? null) === null ? null : pounds(offer.repeatPricePence!),
          repeatTerms: (offer.repeatPricePence ?? null) === null ? null : (offer.repeatTerms ?? null),
          multiBuy: offer.multiBuy ?? null,
          memberPrice: (offer.memberPricePence ?? null) === null ? null : pounds(offer.memberPricePence!),
          memberScheme: (offer.memberPricePence ?? null) === null ? null : (offer.memberScheme ?? null),
        },
      ],
    });
    if (!parsed.success) {
      refuse("invalid");
      const issue = parsed.error.issues[0];
      report(`line ${offer.line}: "${offer.name}" not imported: ${issue ? `${issue.path.join(".")}: ${issue.message}` : "invalid"}`);
      continue;
    }
    try {
      const { value, change } = createProduct(db, parsed.data, now(), {
        gtin: offer.gtin,
        mpn: offer.mpn,
        source: sourceTag,
        deliveryPence: new Map([[retailer.id, offer.deliveryPence]]),
      });
      remember(index, value.id, { name: parsed.data.name, slug: value.slug, brand: parsed.data.brand, gtin: offer.gtin, mpn: offer.mpn });
      index.offers.add(`${value.id}:${retailer.id}`);
      summary.created += 1;
      if (parsed.data.isFeatured) featured += 1;
      changes.push(change);
    } catch (error) {
      if (!(error instanceof WriteRefused)) throw error;
      refuse("conflict");
      report(`line ${offer.line}: "${offer.name}" not imported: ${error.message}`);
    }
  }
  flush();
  const adopted = adoptFeedImages(db, feedImages, now());
  if (isChange(adopted.change)) changes.push(adopted.change);
  const categorised = adoptFeedLegalCategories(db, feedLegalCategories, now());
  if (isChange(categorised.change)) changes.push(categorised.change);
  summary.success = summary.created;
  summary.change = mergeChanges(changes);
  return summary;
}

/** The run counters of a summary so far. */
export function countersOf(summary: Omit<ImportSummary, "change" | "errors">): RunCounters {
  return {
    rowsRead: summary.rows,
    matched: summary.existing,
    created: summary.created,
    offersAdded: summary.offersAdded,
    pricesChanged: summary.pricesChanged,
    held: summary.held,
    unmatched: summary.unmatched,
    refused: { ...summary.refused },
  };
}
