/**
 * Bulk reads for the static build's product pages and sitemaps. Every product page's data comes
 * from four queries in total (products, offers, family sizes, price history), whatever the catalogue size:
 * a per-page query would cost each of 50,000 pages a round trip (TOOLCHAIN.md, build throughput).
 */
import type { Db } from "./client.ts";
import { getProductsByIds, listAllProducts } from "./products.ts";
import { statement } from "./statements.ts";
import type { Product } from "../domain/catalogue.ts";
import type { HistoryPoint } from "../domain/price-chart.ts";
import { productSizes, type FamilyMember, type ProductSize } from "../domain/families.ts";
import type { PackSize } from "../domain/product-quantity.ts";

export type { HistoryPoint };

export interface ProductPageData {
  product: Product;
  /** The product's price points in the window, by retailer then time (see loadProductPages). */
  history: HistoryPoint[];
  /** The sizes of its family, this one among them (productSizes); [] when it has no other size. */
  sizes: ProductSize[];
}

export interface ProductPagesOptions {
  now: Date;
  /** Length of the price-history window ending at `now`; 90 days unless given. */
  historyDays?: number;
  /** Only these products (unknown ids are skipped); every product when absent. */
  productIds?: readonly number[];
}

export const defaultHistoryDays = 90;

const dayMs = 24 * 60 * 60 * 1000;

interface HistoryRow {
  product_id: number;
  retailer_id: number;
  price_pence: number;
  recorded_at: string;
}

/**
 * The price points a chart of the window needs: every point recorded from the window's start,
 * plus per product and retailer the last point before it (the price that held at the left
 * edge; SQLite returns the other columns of the row that holds max()). Retailer names and the
 * "current offers only" rule are applied in JavaScript from the offers already loaded, which
 * keeps this a plain scan: a join or a window function made it two to three times slower.
 */
export const historySql = `SELECT product_id, retailer_id, price_pence, recorded_at FROM price_history WHERE recorded_at >= @start
  UNION ALL
  SELECT product_id, retailer_id, price_pence, max(recorded_at) FROM price_history WHERE recorded_at < @start
  GROUP BY product_id, retailer_id`;

/** The same for a few products, read through the (product_id, recorded_at) index. */
export const someProductsHistorySql = `SELECT product_id, retailer_id, price_pence, recorded_at FROM price_history
  WHERE product_id IN (SELECT value FROM json_each(@ids)) AND recorded_at >= @start
  UNION ALL
  SELECT product_id, retailer_id, price_pence, max(recorded_at) FROM price_history
  WHERE product_id IN (SELECT value FROM json_each(@ids)) AND recorded_at < @start
  GROUP BY product_id, retailer_id`;

const byRetailerThenTime = (a: HistoryPoint, b: HistoryPoint) =>
  a.retailerId - b.retailerId || (a.recordedAt < b.recordedAt ? -1 : a.recordedAt > b.recordedAt ? 1 : 0);

/**
 * Every product (or only `productIds`) with its offers, its family's sizes and, for each retailer
 * it has an offer at, its price history over the last `historyDays` days plus the point carried
 * in at the window's start; in four queries. Products come by id, their offers ordered as in getProductBySlug (in stock first,
 * cheapest first), their history by retailer id then time.
 */
export function loadProductPages(db: Db, options: ProductPagesOptions): ProductPageData[] {
  const days = options.historyDays ?? defaultHistoryDays;
  const start = new Date(options.now.getTime() - days * dayMs).toISOString();
  const ids = options.productIds;
  const products = ids === undefined ? listAllProducts(db) : [...getProductsByIds(db, ids).values()].sort((a, b) => a.id - b.id);
  const sizes = familySizes(db, ids, new Map(products.map((product) => [product.id, product.packSize])));
  const pages = products.map((product): ProductPageData => ({ product, history: [], sizes: sizes.get(product.id) ?? [] }));

  // Per product, the retailers it is sold at now: a removed offer's old prices are not charted.
  const byProduct = new Map<number, { page: ProductPageData; retailers: Map<number, string> }>();
  for (const page of pages) {
    const retailers = new Map(page.product.prices.map((offer) => [offer.retailerId, offer.retailer.name]));
    byProduct.set(page.product.id, { page, retailers });
  }
  const historyRows =
    ids === undefined
      ? statement<HistoryRow>(db, historySql).all({ start })
      : statement<HistoryRow>(db, someProductsHistorySql).all({ start, ids: JSON.stringify(ids) });
  for (const row of historyRows) {
    const entry = byProduct.get(row.product_id);
    const retailerName = entry?.retailers.get(row.retailer_id);
    if (entry === undefined || retailerName === undefined) continue;
    entry.page.history.push({ retailerId: row.retailer_id, retailerName, pricePence: row.price_pence, recordedAt: row.recorded_at });
  }
  for (const page of pages) page.history.sort(byRetailerThenTime);
  return pages;
}

/** A product page's address: the product's id and slug. */
export interface ProductPageKey {
  id: number;
  slug: string;
}

/**
 * The products that get pages (every product, or only `productIds`; unknown ids are skipped), by
 * id: the same products loadProductPages reads, without their data, so a build can list every
 * page first and read the pages' data a batch at a time.
 */
export function productPageKeys(db: Db, productIds?: readonly number[]): ProductPageKey[] {
  const from = "FROM products p JOIN categories c ON c.id = p.category_id";
  return productIds === undefined
    ? statement<ProductPageKey>(db, `SELECT p.id, p.slug ${from} ORDER BY p.id`).all()
    : statement<ProductPageKey>(db, `SELECT p.id, p.slug ${from} WHERE p.id IN (SELECT value FROM json_each(?)) ORDER BY p.id`).all(
        JSON.stringify(productIds),
      );
}

interface FamilyRow {
  family_key: string;
  id: number;
  slug: string;
  name: string;
  best_price_pence: number | null;
  best_delivery_pence: number | null;
  best_retailer_name: string | null;
}

/**
 * The sizes of every product's family (or only these products' families), in one query for all
 * of them: by product id, the family's sizes, one array shared by the family's members. Products
 * without a family key, or alone in theirs, are absent. `packSizes`: pack sizes already read from
 * the names (the build has them), so no name is read twice.
 */
const familyColumns = `p.family_key, p.id, p.slug, p.name, p.best_price_pence, p.best_delivery_pence, r.name AS best_retailer_name
  FROM products p LEFT JOIN retailers r ON r.id = p.best_retailer_id`;

export function familySizes(db: Db, productIds?: readonly number[], packSizes?: ReadonlyMap<number, PackSize | null>): Map<number, ProductSize[]> {
  // Every family: a plain scan, grouped here (a third of the time of grouping in SQL at 50,000).
  const rows =
    productIds === undefined
      ? statement<FamilyRow>(db, `SELECT ${familyColumns} WHERE p.family_key IS NOT NULL ORDER BY p.id`).all()
      : statement<FamilyRow>(
          db,
          `SELECT ${familyColumns}
           WHERE p.family_key IN (SELECT family_key FROM products WHERE id IN (SELECT value FROM json_each(?)) AND family_key IS NOT NULL)
           ORDER BY p.family_key, p.id`,
        ).all(JSON.stringify(productIds));
  const families = new Map<string, FamilyMember[]>();
  for (const row of rows) {
    const member: FamilyMember = {
      id: row.id,
      slug: row.slug,
      name: row.name,
      bestPricePence: row.best_price_pence,
      packSize: packSizes?.get(row.id),
      bestRetailer: row.best_retailer_name,
      bestDeliveryPence: row.best_delivery_pence,
    };
    const family = families.get(row.family_key);
    if (family) family.push(member);
    else families.set(row.family_key, [member]);
  }
  const byProduct = new Map<number, ProductSize[]>();
  for (const members of families.values()) {
    const sizes = productSizes(members);
    if (sizes.length > 0) for (const member of members) byProduct.set(member.id, sizes);
  }
  return byProduct;
}

/**
 * The products whose pages show these products: themselves (kept even when gone, so a missing
 * page is still noticed) and the other sizes of their families (each size's page lists every
 * size's price), by id.
 */
export function withFamilyMembers(db: Db, productIds: readonly number[]): number[] {
  if (productIds.length === 0) return [];
  const rows = statement<{ id: number }>(
    db,
    `SELECT id FROM products WHERE family_key IN
       (SELECT family_key FROM products WHERE id IN (SELECT value FROM json_each(?)) AND family_key IS NOT NULL)`,
  ).all(JSON.stringify(productIds));
  return [...new Set([...productIds, ...rows.map((row) => row.id)])].sort((a, b) => a - b);
}

/** The sizes of one product's family ([] when it has none): the product API's detail. */
export function sizesOf(db: Db, productId: number): ProductSize[] {
  return familySizes(db, [productId]).get(productId) ?? [];
}

export interface SitemapEntry {
  slug: string;
  /** ISO-8601: the latest of the product's creation, last edit and any price change. */
  lastModified: string;
}

export interface ProductSitemap {
  /** File name without extension: products-1, products-2, ... */
  name: string;
  entries: SitemapEntry[];
}

/** The sitemap protocol allows 50,000 URLs per file; staying below leaves room and keeps files small. */
export const productsPerSitemap = 40_000;

/**
 * Every product's slug and last-modified time in one query, split into sitemap files of at
 * most `perFile` products. A price change counts as a modification: it changes the page.
 */
export function productSitemaps(db: Db, perFile: number = productsPerSitemap): ProductSitemap[] {
  const entries = statement<SitemapEntry>(
    db,
    `SELECT p.slug,
       max(coalesce(p.last_edited_at, p.created_at),
           coalesce((SELECT max(pp.updated_at) FROM product_prices pp WHERE pp.product_id = p.id), '')) AS lastModified
     FROM products p ORDER BY p.id`,
  ).all();
  const files: ProductSitemap[] = [];
  for (let start = 0; start < entries.length; start += perFile) {
    files.push({ name: `products-${files.length + 1}`, entries: entries.slice(start, start + perFile) });
  }
  return files;
}
