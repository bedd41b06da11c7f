/** Reads of the small catalogue tables: categories, retailers, vouchers, affiliate IDs. */
import type { Db } from "./client.ts";
import type { AffiliateSettingRow, CategoryRow, RetailerRow } from "./rows.ts";
import { statement } from "./statements.ts";
import { affiliateKeys, type AffiliateIds, type Category, type Retailer, type Voucher } from "../domain/catalogue.ts";
import { ukToday } from "../domain/dates.ts";
import { toPounds } from "../domain/money.ts";
import { retailerHosts } from "../domain/retailers.ts";
import { retailerNameKey } from "../domain/voucher-retailers.ts";

/** A category's columns, as the API gives them. */
type CategoryColumnsRow = Pick<CategoryRow, "id" | "name" | "slug" | "icon" | "description">;

export function listCategories(db: Db): Category[] {
  return statement<CategoryColumnsRow>(db, "SELECT id, name, slug, icon, description FROM categories ORDER BY name COLLATE NOCASE, id").all();
}

export function getCategoryById(db: Db, id: number): Category | null {
  return statement<CategoryColumnsRow>(db, "SELECT id, name, slug, icon, description FROM categories WHERE id = ?").get(id) ?? null;
}

export function getCategoryBySlug(db: Db, slug: string): Category | null {
  return statement<CategoryColumnsRow>(db, "SELECT id, name, slug, icon, description FROM categories WHERE slug = ?").get(slug) ?? null;
}

const retailerColumns =
  "id, key, name, logo, website, description, compares_prices = 1 AS comparesPrices, delivery_pence, free_delivery_from_pence, hosts, feed_names";

/** A retailer as retailerColumns reads it (compares_prices as comparesPrices, 1 or 0). */
type RetailerColumnsRow = Pick<RetailerRow, "id" | "key" | "name" | "logo" | "website" | "description" | "delivery_pence" | "free_delivery_from_pence" | "hosts" | "feed_names"> & {
  comparesPrices: RetailerRow["compares_prices"];
};

const toRetailer = (row: RetailerColumnsRow): Retailer => {
  const { delivery_pence, free_delivery_from_pence, hosts, feed_names, ...retailer } = row;
  const added = storedTextList(hosts);
  return {
    ...retailer,
    comparesPrices: retailer.comparesPrices === 1,
    deliveryCharge: toPounds(delivery_pence),
    freeDeliveryFrom: toPounds(free_delivery_from_pence),
    hosts: added,
    offerHosts: retailerHosts({ key: retailer.key, website: retailer.website, hosts: added }),
    feedNames: storedTextList(feed_names),
  };
};

/** A stored JSON list of text (retailers' hosts and feed names); anything else reads as empty. */
export function storedTextList(json: string): string[] {
  try {
    const value: unknown = JSON.parse(json);
    return Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : [];
  } catch {
    return [];
  }
}

export function listRetailers(db: Db): Retailer[] {
  return statement<RetailerColumnsRow>(db, `SELECT ${retailerColumns} FROM retailers ORDER BY name COLLATE NOCASE, id`).all().map(toRetailer);
}

export function getRetailerById(db: Db, id: number): Retailer | null {
  const row = statement<RetailerColumnsRow>(db, `SELECT ${retailerColumns} FROM retailers WHERE id = ?`).get(id);
  return row === undefined ? null : toRetailer(row);
}

interface VoucherRow extends Omit<Voucher, "isValid"> {
  expiry_date: string;
}

export interface VoucherFilter {
  status: "all" | "active";
  sort: "expiry" | "popular";
  retailer?: string | undefined;
  offset: number;
  limit: number;
}

/**
 * Vouchers with `isValid` (not expired, UK date), soonest expiry or most used first; `retailer`
 * matches the voucher's retailer name without case, spaces or punctuation.
 */
export function listVouchers(db: Db, filter: VoucherFilter, today = ukToday()): { vouchers: Voucher[]; total: number } {
  const conditions: string[] = [];
  const params: unknown[] = [];
  if (filter.status === "active") {
    conditions.push("expiry_date >= ?");
    params.push(today);
  }
  if (filter.retailer !== undefined) {
    // The retailer's vouchers under any spelling of its name ("Pet Planet" for "Petplanet").
    const key = retailerNameKey(filter.retailer);
    const names = statement<{ retailer: string }>(db, "SELECT DISTINCT retailer FROM vouchers").all()
      .map((row) => row.retailer)
      .filter((name) => retailerNameKey(name) === key);
    conditions.push("retailer IN (SELECT value FROM json_each(?))");
    params.push(JSON.stringify(names));
  }
  const where = conditions.length ? `WHERE ${conditions.join(" AND ")}` : "";
  const order = filter.sort === "popular" ? "uses DESC, expiry_date, id" : "expiry_date, id";
  const { total } = statement<{ total: number }>(db, `SELECT count(*) AS total FROM vouchers ${where}`).get(...params)!;
  const rows = statement<VoucherRow>(
    db,
    `SELECT id, code, description, retailer, url, discount, expiry_date, uses FROM vouchers ${where} ORDER BY ${order} LIMIT ? OFFSET ?`,
  ).all(...params, filter.limit, filter.offset);
  const vouchers = rows.map(({ expiry_date, ...row }) => ({ ...row, expiryDate: expiry_date, isValid: expiry_date >= today }));
  return { vouchers, total };
}

/** The five affiliate IDs; a key never set reads as an empty string (links then carry no tag). */
export function getAffiliateIds(db: Db): AffiliateIds {
  const rows = statement<Pick<AffiliateSettingRow, "key" | "value">>(db, "SELECT key, value FROM affiliate_settings").all();
  const stored = new Map(rows.map((row) => [row.key, row.value]));
  return Object.fromEntries(affiliateKeys.map((key) => [key, stored.get(key) ?? ""])) as AffiliateIds;
}

/** The retailers whose prices the site compares (the grid's retailer filter, "compared across N retailers"). */
export function listComparisonRetailers(db: Db): Retailer[] {
  return statement<RetailerColumnsRow>(
    db,
    `SELECT ${retailerColumns} FROM retailers WHERE compares_prices = 1 ORDER BY name COLLATE NOCASE, id`,
  ).all().map(toRetailer);
}
