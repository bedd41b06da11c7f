/**
 * Build-time access to the catalogue: every page and component reads the database through these
 * functions, never through data/db (or data/seed) directly. Pages read SQLite through the data
 * layer (no HTTP round trip), one read-only connection per pass, small shared lists read once.
 *
 * A pass is one build or one fast re-render (data/site-build-pass.ts): it reads one database
 * snapshot, and a fast one renders only some products' pages; a new pass drops everything read
 * for the previous one. Without a worker (astro dev, astro check) the pass reads DATABASE_PATH
 * and covers every product.
 */
import { databasePath, pricePipelineConfig } from "../../data/config.ts";
import { currentBuildPass, type BuildPass } from "../../data/site-build-pass.ts";
import { openDb, type Db } from "../../data/db/client.ts";
import { getAffiliateIds, listCategories, listComparisonRetailers, listRetailers, listVouchers } from "../../data/db/catalogue.ts";
import {
  defaultHistoryDays,
  loadProductPages,
  productPageKeys,
  productSitemaps,
  type ProductPageData,
  type ProductPageKey,
  type ProductSitemap,
} from "../../data/db/product-pages.ts";
import { countProducts, listFeaturedProducts, listProducts } from "../../data/db/products.ts";
import { dealFactsFor } from "../../data/db/deal-facts.ts";
import { readOfferPricing } from "../../data/db/offer-pricing.ts";
import type { OfferPricing } from "../../data/domain/offers.ts";
import { hasDemoOffers } from "../../data/db/demo.ts";
import type { DealFacts } from "../../data/domain/deal-facts.ts";
import { brandCountsByCategory, listBrandCounts } from "../../data/db/facets.ts";
import type { BrandCount } from "../../data/domain/facets.ts";
import type { AffiliateIds, Category, Product, Retailer, Voucher } from "../../data/domain/catalogue.ts";
import type { ProductFilters } from "../../data/domain/queries.ts";
import { defaultSort } from "../../data/domain/sorting.ts";
import { voucherFilterRetailers } from "../../data/domain/voucher-retailers.ts";

let defaultPass: BuildPass | undefined;

function currentPass(): BuildPass {
  return currentBuildPass() ?? (defaultPass ??= { databaseFile: databasePath(), productIds: null });
}

interface PassData {
  pass: BuildPass;
  db: Db;
  /** Values read once per pass, by name. */
  memo: Map<string, unknown>;
}

let data: PassData | undefined;

function passData(): PassData {
  const pass = currentPass();
  if (data?.pass !== pass) {
    data?.pass.release?.();
    const opened: PassData = { pass, db: openDb(pass.databaseFile, { readonly: true }), memo: new Map() };
    pass.release = () => {
      if (opened.db.$client.open) opened.db.$client.close();
      if (data === opened) data = undefined;
    };
    data = opened;
  }
  return data;
}

/**
 * HTML that is the same on every page of a pass (the page frame: header, footer, cookie banner),
 * rendered by the first page that asks and repeated by the others: a product build renders tens
 * of thousands of pages, and the frame was a large share of each. Only inside a build or a fast
 * pass; `astro dev` renders it every time, so an edited component shows at once.
 */
export function renderedOncePerPass(name: string, render: () => Promise<string>): Promise<string> {
  if (currentBuildPass() === undefined) return render();
  const { memo } = passData();
  const key = `html:${name}`;
  if (!memo.has(key)) memo.set(key, render());
  return memo.get(key) as Promise<string>;
}

/** `read` once per pass under this name. */
function once<T>(name: string, read: (db: Db) => T): T {
  const { db, memo } = passData();
  if (!memo.has(name)) memo.set(name, read(db));
  return memo.get(name) as T;
}

export function allCategories(): Category[] {
  return once("categories", listCategories);
}

export function allRetailers(): Retailer[] {
  return once("retailers", listRetailers);
}

/** The retailers whose prices the site compares, by name. */
export function comparisonRetailers(): Retailer[] {
  return once("comparison-retailers", listComparisonRetailers);
}

/**
 * The compared retailers' names for sentences ("across Amazon, Pets at Home, ... and eBay"), in
 * the order they were added, and how many there are.
 */
export function comparedRetailers(): { names: string[]; count: number; list: string } {
  return once("compared-retailers", () => {
    const names = [...comparisonRetailers()].sort((a, b) => a.id - b.id).map((retailer) => retailer.name);
    return { names, count: names.length, list: new Intl.ListFormat("en-GB", { type: "conjunction" }).format(names) };
  });
}

/** Whether any demo offer is published: every page then says its prices are illustrative (one query per pass). */
export function showsDemoNotice(): boolean {
  return once("demo-offers", hasDemoOffers);
}

/** How long a confirmed price counts as current (PRICE_FRESH_HOURS, as the server's stale sweep uses it). */
export function priceFreshForMs(): number {
  return pricePipelineConfig().freshForMs;
}

export function buildAffiliateIds(): AffiliateIds {
  return once("affiliate-ids", getAffiliateIds);
}

/**
 * A grid's brands with their counts: the catalogue's, or one category's (every category's are
 * read in one query, once per pass).
 */
export function gridBrandCounts(category?: string): BrandCount[] {
  if (category === undefined) return once("brand-counts", (db) => listBrandCounts(db, {}));
  return once("brand-counts-by-category", brandCountsByCategory).get(category) ?? [];
}

export { defaultHistoryDays };

/** The products this pass renders pages for, by id (ids and slugs only): the product route's paths. */
export function productPageKeysOfPass(): ProductPageKey[] {
  return once("product-page-keys", (db) => {
    const { pass } = passData();
    const keys = productPageKeys(db, pass.productIds ?? undefined);
    pass.productPages = keys;
    return keys;
  });
}

/** What one product page shows: its product, offers, history and sizes, its offers' pricing and its deal facts. */
export interface ProductPageInput extends ProductPageData {
  /**
   * The pricing inputs (item price, delivery, the retailer's delivery rule) of its offers: what
   * turns a recorded item price into a price to the door for the chart and the deal facts.
   */
  pricing: readonly OfferPricing[];
  /** Lowest in 90 days, typical price, deal, supported was-price; undefined when it has no offers. */
  dealFacts: DealFacts | undefined;
}

/**
 * Product pages' data is read this many pages at a time, in the order the pass lists them (the
 * order Astro renders them in): a few queries per batch, and only a batch or two held at once, so
 * a build's memory does not grow with the catalogue.
 */
export const productPageBatchSize = 1000;

/** Batches kept: the one pages are being rendered from and the one before (pages still rendering). */
const keptBatches = 2;

/**
 * One product page's data as of `now` (every page of a pass gets the same `now`), with its price
 * history over the `defaultHistoryDays` up to `now`. Read with the other pages of its batch: their
 * products, offers, sizes and history (loadProductPages), their offers' pricing and their deal
 * facts, worked out in bulk from that history plus one query for the longer history of the
 * products whose "was" price the 90 days do not settle.
 */
export function productPageData(productId: number, now: Date): ProductPageInput {
  const { db } = passData();
  const keys = productPageKeysOfPass();
  const positions = once("product-page-positions", () => new Map(keys.map(({ id }, position) => [id, position])));
  const position = positions.get(productId);
  if (position === undefined) throw new Error(`product ${productId} has no page in this build`);
  const batches = once("product-page-batches", () => new Map<string, ReadonlyMap<number, ProductPageInput>>());
  const first = position - (position % productPageBatchSize);
  const key = `${now.getTime()}:${first}`;
  let batch = batches.get(key);
  if (!batch) {
    const ids = keys.slice(first, first + productPageBatchSize).map(({ id }) => id);
    const pages = loadProductPages(db, { now, historyDays: defaultHistoryDays, productIds: ids });
    const pricing = readOfferPricing(db, ids);
    const history = new Map(pages.map((page) => [page.product.id, page.history]));
    const dealFacts = dealFactsFor(db, ids, now, history, pricing);
    batch = new Map(
      pages.map((page) => [
        page.product.id,
        { ...page, pricing: pricing.get(page.product.id) ?? [], dealFacts: dealFacts.get(page.product.id) },
      ]),
    );
    batches.set(key, batch);
    // The oldest batch goes first (a Map keeps insertion order).
    while (batches.size > keptBatches) batches.delete(batches.keys().next().value!);
  }
  const page = batch.get(productId);
  if (!page) throw new Error(`product ${productId} has no page in this build`);
  return page;
}

/** Every product's sitemap entry, in files of 40,000 (read once for the index and the files). */
export function productSitemapFiles(): ProductSitemap[] {
  return once("product-sitemaps", productSitemaps);
}

/** The top featured product (the home page's example deal), or undefined when none is featured. */
export function topFeaturedProduct(): Product | undefined {
  return once("featured", (db) => listFeaturedProducts(db, 1)[0]);
}

/** A product grid's first page in the default order, and how many products match. */
export function gridFirstPage(filters: ProductFilters, pageSize: number): { products: Product[]; count: number } {
  const { db } = passData();
  return { products: listProducts(db, filters, { sort: defaultSort, offset: 0, limit: pageSize }), count: countProducts(db, filters) };
}

/** The vouchers island's first page of active vouchers, and the retailers its filter offers (a fixed list, in its order). */
export function voucherLists(pageSize: number): { vouchers: Voucher[]; total: number; retailers: string[] } {
  const { db } = passData();
  const { vouchers, total } = listVouchers(db, { status: "active", sort: "expiry", offset: 0, limit: pageSize });
  return { vouchers, total, retailers: [...voucherFilterRetailers] };
}
