/** Reads for the admin screens: the product table, the edit form, subscribers, vouchers, analytics. */
import type { Db } from "./client.ts";
import { productRow } from "./product-rows.ts";
import { listAffiliateLinks, searchBm25 } from "./products.ts";
import { statement } from "./statements.ts";
import { toPounds } from "../domain/money.ts";
import { type FeedingGuide } from "../domain/feeding.ts";
import { parseFeedingGuide } from "../domain/feeding.schema.ts";
import type { LegalCategory } from "../domain/legal-category.ts";
import { toFtsQuery } from "../domain/search.ts";
import { detailsFromRow, type ProductDetailValues } from "../domain/product-details.ts";

export const adminPageSize = 100;

export interface AdminProductRow {
  id: number;
  name: string;
  slug: string;
  category: { id: number; name: string };
  bestRetailer: { id: number; name: string } | null;
  bestPrice: number | null;
  rating: number;
  reviewCount: number;
  isFeatured: boolean;
  lastEditedAt: string | null;
  createdAt: string;
}

interface ProductListRow {
  id: number;
  name: string;
  slug: string;
  category_id: number;
  category_name: string;
  best_retailer_id: number | null;
  best_retailer_name: string | null;
  best_price_pence: number | null;
  rating: number;
  review_count: number;
  is_featured: number;
  last_edited_at: string | null;
  created_at: string;
}

const adminColumns = `p.id, p.name, p.slug, p.category_id, c.name AS category_name, p.best_retailer_id, r.name AS best_retailer_name,
  p.best_price_pence, p.rating, p.review_count, p.is_featured, p.last_edited_at, p.created_at`;
const adminFrom = "FROM products p JOIN categories c ON c.id = p.category_id LEFT JOIN retailers r ON r.id = p.best_retailer_id";

/**
 * A page of the admin product table, 100 per page. Without a search: in Best Selling order (rank,
 * then id), like the shop. With one: full-text matches, best first.
 */
export function listAdminProducts(db: Db, options: { page: number; q?: string | undefined }): { products: AdminProductRow[]; total: number } {
  const offset = (options.page - 1) * adminPageSize;
  let rows: ProductListRow[];
  let total: number;
  const match = options.q ? toFtsQuery(options.q) : null;
  if (options.q && match === null) return { products: [], total: 0 };
  if (match !== null) {
    total = statement<{ n: number }>(db, "SELECT count(*) AS n FROM product_search WHERE product_search MATCH ?").get(match)!.n;
    rows = statement<ProductListRow>(
      db,
      `WITH hits AS (SELECT rowid AS id, ${searchBm25} AS score FROM product_search WHERE product_search MATCH ?)
       SELECT ${adminColumns} FROM hits JOIN products p ON p.id = hits.id
         JOIN categories c ON c.id = p.category_id LEFT JOIN retailers r ON r.id = p.best_retailer_id
       ORDER BY hits.score, p.rank, p.id LIMIT ? OFFSET ?`,
    ).all(match, adminPageSize, offset);
  } else {
    total = statement<{ n: number }>(db, "SELECT count(*) AS n FROM products").get()!.n;
    rows = statement<ProductListRow>(db, `SELECT ${adminColumns} ${adminFrom} ORDER BY p.rank, p.id LIMIT ? OFFSET ?`).all(adminPageSize, offset);
  }
  return {
    total,
    products: rows.map((row) => ({
      id: row.id,
      name: row.name,
      slug: row.slug,
      category: { id: row.category_id, name: row.category_name },
      bestRetailer: row.best_retailer_id === null ? null : { id: row.best_retailer_id, name: row.best_retailer_name ?? "" },
      bestPrice: toPounds(row.best_price_pence),
      rating: row.rating,
      reviewCount: row.review_count,
      isFeatured: row.is_featured === 1,
      lastEditedAt: row.last_edited_at,
      createdAt: row.created_at,
    })),
  };
}

/** A product as the edit form loads it, its details (product-details.ts) among its fields. */
export interface AdminProduct extends ProductDetailValues {
  id: number;
  name: string;
  slug: string;
  image: string;
  brand: string | null;
  categoryId: number;
  rating: number;
  reviewCount: number;
  isFeatured: boolean;
  retailerLinks: {
    retailerId: number;
    affiliateUrl: string;
    price: number;
    originalPrice: number | null;
    inStock: boolean;
    priceOverride: boolean;
    manualPrice: number | null;
    freeDelivery: boolean;
    repeatPrice: number | null;
    repeatTerms: string | null;
    /** "3 for 2", "2 for £20.00"; null: none. */
    multiBuy: string | null;
    /** What members of memberScheme pay (pounds); null: none. */
    memberPrice: number | null;
    memberScheme: string | null;
  }[];
  /** The family its sizes share; null when none. */
  familyKey: string | null;
  /** A food's energy, kcal per kg as fed; null when not stated. */
  kcalPerKg: number | null;
  /** A food's feeding guide; null when none. */
  feedingGuide: FeedingGuide | null;
  /** Its legal category as a veterinary medicine; "none" when it is not one. */
  legalCategory: LegalCategory;
}

/** A product as the edit form loads it: the same shape the form saves. */
export function getAdminProduct(db: Db, id: number): AdminProduct | null {
  const row = productRow(db, id);
  if (!row) return null;
  return {
    id: row.id,
    name: row.name,
    slug: row.slug,
    ...detailsFromRow(row),
    image: row.image,
    brand: row.brand,
    categoryId: row.category_id,
    rating: row.rating,
    reviewCount: row.review_count,
    isFeatured: row.is_featured === 1,
    retailerLinks: listAffiliateLinks(db, id).map(({ url, ...link }) => ({
      retailerId: link.retailerId,
      affiliateUrl: url,
      price: link.price,
      originalPrice: link.originalPrice,
      inStock: link.inStock,
      priceOverride: link.priceOverride,
      manualPrice: link.manualPrice,
      freeDelivery: link.freeDelivery,
      repeatPrice: link.repeatPrice,
      repeatTerms: link.repeatTerms,
      multiBuy: link.multiBuy,
      memberPrice: link.memberPrice,
      memberScheme: link.memberScheme,
    })),
    familyKey: row.family_key,
    kcalPerKg: row.kcal_per_kg,
    feedingGuide: parseFeedingGuide(row.feeding_guide),
    legalCategory: row.legal_category,
  };
}

export function dashboardCounts(db: Db): { products: number; categories: number; retailers: number } {
  return statement<{ products: number; categories: number; retailers: number }>(
    db,
    "SELECT (SELECT count(*) FROM products) AS products, (SELECT count(*) FROM categories) AS categories, (SELECT count(*) FROM retailers) AS retailers",
  ).get()!;
}

export interface Subscriber {
  id: number;
  email: string;
  isActive: boolean;
  subscribedAt: string;
  source: string;
}

/** Every subscriber, newest first. */
export function listSubscribers(db: Db): Subscriber[] {
  const rows = statement<{
    id: number;
    email: string;
    is_active: number;
    subscribed_at: string;
    source: string;
  }>(db, "SELECT id, email, is_active, subscribed_at, source FROM email_subscribers ORDER BY subscribed_at DESC, id DESC").all();
  return rows.map((row) => ({ id: row.id, email: row.email, isActive: row.is_active === 1, subscribedAt: row.subscribed_at, source: row.source }));
}

export interface AdminVoucher {
  id: number;
  code: string;
  description: string;
  retailer: string;
  url: string;
  discount: string;
  expiryDate: string;
  uses: number;
  isValid: boolean;
}

/** Every voucher, soonest expiry first; `isValid` while its last day (UK date) has not passed. */
export function listAllVouchers(db: Db, today: string): AdminVoucher[] {
  const rows = statement<(Omit<
    AdminVoucher,
    "expiryDate" | "isValid"
  > & { expiry_date: string })>(db, "SELECT id, code, description, retailer, url, discount, expiry_date, uses FROM vouchers ORDER BY expiry_date, id").all();
  return rows.map(({ expiry_date, ...row }) => ({ ...row, expiryDate: expiry_date, isValid: expiry_date >= today }));
}

export interface Analytics {
  totals: { products: number; featuredProducts: number; categories: number; retailers: number; emailSubscribers: number; activeVouchers: number };
  /** Per category, largest first: its products and their share of all products, rounded to a whole percent. */
  distribution: { categoryId: number; name: string; products: number; percent: number }[];
  clicks: { days: number; byRetailer: { retailer: string; clicks: number }[]; topProducts: { productId: number; name: string; slug: string; clicks: number }[] };
}

export const clickWindowDays = 30;

/**
 * The analytics cards. Clicks count only the affiliate clicks visitors consented to record,
 * over the last 30 days; a click whose retailer is no longer known counts under the name it had.
 */
export function readAnalytics(db: Db, now: Date, today: string): Analytics {
  const totals = statement<Analytics["totals"]>(
    db,
    `SELECT (SELECT count(*) FROM products) AS products, (SELECT count(*) FROM products WHERE is_featured = 1) AS featuredProducts,
       (SELECT count(*) FROM categories) AS categories, (SELECT count(*) FROM retailers) AS retailers,
       (SELECT count(*) FROM email_subscribers) AS emailSubscribers, (SELECT count(*) FROM vouchers WHERE expiry_date >= ?) AS activeVouchers`,
  ).get(today)!;
  const perCategory = statement<{ id: number; name: string; products: number }>(
    db,
    `SELECT c.id, c.name, count(p.id) AS products FROM categories c LEFT JOIN products p ON p.category_id = c.id
     GROUP BY c.id ORDER BY products DESC, c.name COLLATE NOCASE, c.id`,
  ).all();
  const distribution = perCategory.map((row) => ({
    categoryId: row.id,
    name: row.name,
    products: row.products,
    percent: totals.products === 0 ? 0 : Math.round((row.products * 100) / totals.products),
  }));
  const since = new Date(now.getTime() - clickWindowDays * 24 * 60 * 60 * 1000).toISOString();
  const byRetailer = statement<{ retailer: string; clicks: number }>(
    db,
    `SELECT coalesce(r.name, json_extract(b.metadata, '$.retailer'), 'Unknown') AS retailer, count(*) AS clicks
     FROM user_behaviour b LEFT JOIN retailers r ON r.id = b.retailer_id
     WHERE b.action = 'affiliate_click' AND b.timestamp >= ?
     GROUP BY 1 ORDER BY clicks DESC, retailer COLLATE NOCASE`,
  ).all(since);
  const topProducts = statement<{ productId: number; name: string; slug: string; clicks: number }>(
    db,
    `SELECT p.id AS productId, p.name, p.slug, count(*) AS clicks
     FROM user_behaviour b JOIN products p ON p.id = b.product_id
     WHERE b.action = 'affiliate_click' AND b.timestamp >= ?
     GROUP BY p.id ORDER BY clicks DESC, p.name COLLATE NOCASE, p.id LIMIT 10`,
  ).all(since);
  return { totals, distribution, clicks: { days: clickWindowDays, byRetailer, topProducts } };
}
