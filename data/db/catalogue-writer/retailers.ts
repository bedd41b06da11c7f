/** Writes of retailers: names, hosts their offers may use, and delivery rules. */
import type { Db } from "../client.ts";
import { changedFields, recordAudit } from "../audit.ts";
import { recomputeBestPrices } from "../offers.ts";
import { statement } from "../statements.ts";
import { storedTextList } from "../catalogue.ts";
import type { RetailerInput } from "../../domain/catalogue-input.ts";
import { slugify } from "../../domain/slug.ts";
import type { Pence } from "../../domain/money.ts";
import { catalogueTransaction, noChange, plural, siteWideChange, WriteRefused, type Written } from "./transaction.ts";

interface StoredRetailer {
  id: number;
  key: string;
  name: string;
  logo: string;
  website: string;
  description: string;
  comparesPrices: boolean;
  /** The standard delivery rule, in pence. */
  deliveryPence: Pence | null;
  freeDeliveryFromPence: Pence | null;
  /** Hosts the site owner added for its offer URLs. */
  hosts: string[];
  feedNames: string[];
}

function storedRetailer(db: Db, id: number): StoredRetailer | undefined {
  const row = statement(
    db,
    `SELECT id, key, name, logo, website, description, compares_prices, delivery_pence AS deliveryPence,
       free_delivery_from_pence AS freeDeliveryFromPence, hosts, feed_names
     FROM retailers WHERE id = ?`,
  ).get(id) as (Omit<StoredRetailer, "comparesPrices" | "hosts" | "feedNames"> & { compares_prices: number; hosts: string; feed_names: string }) | undefined;
  if (!row) return undefined;
  const { compares_prices, hosts, feed_names, ...rest } = row;
  return { ...rest, comparesPrices: compares_prices === 1, hosts: storedTextList(hosts), feedNames: storedTextList(feed_names) };
}

/**
 * The retailer as stored after a write of `input`; a delivery part, host list or feed names the
 * input leaves out are taken from `kept` (a client that does not know them cannot wipe them).
 */
function retailerAfter(id: number, key: string, input: RetailerInput, kept: Pick<StoredRetailer, "deliveryPence" | "freeDeliveryFromPence" | "hosts" | "feedNames">): StoredRetailer {
  return {
    id,
    key,
    name: input.name,
    logo: input.logo,
    website: input.website,
    description: input.description,
    comparesPrices: input.comparesPrices,
    deliveryPence: input.deliveryCharge === undefined ? kept.deliveryPence : input.deliveryCharge,
    freeDeliveryFromPence: input.freeDeliveryFrom === undefined ? kept.freeDeliveryFromPence : input.freeDeliveryFrom,
    hosts: input.hosts ?? kept.hosts,
    feedNames: input.feedNames ?? kept.feedNames,
  };
}

/** Products with an offer at the retailer: their totals to the door follow its delivery rule. */
function productsSoldAt(db: Db, retailerId: number): number[] {
  return (statement(db, "SELECT DISTINCT product_id FROM product_prices WHERE retailer_id = ? ORDER BY product_id").all(retailerId) as {
    product_id: number;
  }[]).map((row) => row.product_id);
}

function assertRetailerFree(db: Db, key: string, name: string, exceptId: number | null): void {
  const byKey = statement(db, "SELECT id FROM retailers WHERE key = ?").get(key) as { id: number } | undefined;
  if (byKey && byKey.id !== exceptId) throw new WriteRefused(409, `A retailer with the key "${key}" already exists`);
  const byName = statement(db, "SELECT id FROM retailers WHERE name = ? COLLATE NOCASE").get(name) as { id: number } | undefined;
  if (byName && byName.id !== exceptId) throw new WriteRefused(409, `A retailer named "${name}" already exists`);
}

function offerCount(db: Db, retailerId: number): number {
  return (statement(db, "SELECT count(*) AS n FROM product_prices WHERE retailer_id = ?").get(retailerId) as { n: number }).n;
}

export function createRetailer(db: Db, input: RetailerInput, now = new Date()): Written<StoredRetailer> {
  return catalogueTransaction(db, () => {
    const key = input.key ?? slugify(input.name);
    if (!key) throw new WriteRefused(400, "name must contain a letter or digit (the retailer's key is made from it)");
    assertRetailerFree(db, key, input.name, null);
    const deliveryPence = input.deliveryCharge ?? null;
    const freeDeliveryFromPence = input.freeDeliveryFrom ?? null;
    const hosts = input.hosts ?? [];
    const feedNames = input.feedNames ?? [];
    const { id } = statement(
      db,
      `INSERT INTO retailers (key, name, logo, website, description, compares_prices, delivery_pence, free_delivery_from_pence, hosts, feed_names)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
    ).get(
      key,
      input.name,
      input.logo,
      input.website,
      input.description,
      input.comparesPrices ? 1 : 0,
      deliveryPence,
      freeDeliveryFromPence,
      JSON.stringify(hosts),
      JSON.stringify(feedNames),
    ) as {
      id: number;
    };
    const value = retailerAfter(id, key, input, { deliveryPence, freeDeliveryFromPence, hosts, feedNames });
    recordAudit(db, { action: "create", entity: "retailer", entityId: id, summary: `Created retailer "${input.name}"`, after: { ...value } }, now);
    return { value, change: siteWideChange };
  });
}

export function updateRetailer(db: Db, id: number, input: RetailerInput, now = new Date()): Written<StoredRetailer> {
  return catalogueTransaction(db, () => {
    const before = storedRetailer(db, id);
    if (!before) throw new WriteRefused(404, "Retailer not found");
    // The key is the retailer's identity for affiliate rules and feeds: kept unless given.
    const key = input.key ?? before.key;
    assertRetailerFree(db, key, input.name, id);
    if (before.comparesPrices && !input.comparesPrices) {
      const offers = offerCount(db, id);
      if (offers > 0) {
        throw new WriteRefused(409, `${before.name} still has ${plural(offers, "offer")}; remove them before turning off price comparison`);
      }
    }
    const after = retailerAfter(id, key, input, before);
    const diff = changedFields({ ...before }, { ...after });
    if (diff.names.length === 0) return { value: after, change: noChange };
    statement(
      db,
      `UPDATE retailers SET key = ?, name = ?, logo = ?, website = ?, description = ?, compares_prices = ?, delivery_pence = ?,
         free_delivery_from_pence = ?, hosts = ?, feed_names = ? WHERE id = ?`,
    ).run(
      key,
      input.name,
      input.logo,
      input.website,
      input.description,
      input.comparesPrices ? 1 : 0,
      after.deliveryPence,
      after.freeDeliveryFromPence,
      JSON.stringify(after.hosts),
      JSON.stringify(after.feedNames),
      id,
    );
    // A new delivery rule moves the totals to the door, and so the best prices, of everything sold here.
    const ruleChanged = before.deliveryPence !== after.deliveryPence || before.freeDeliveryFromPence !== after.freeDeliveryFromPence;
    const repriced = ruleChanged ? productsSoldAt(db, id) : [];
    if (repriced.length > 0) recomputeBestPrices(db, repriced, now);
    recordAudit(
      db,
      { action: "update", entity: "retailer", entityId: id, summary: `Updated retailer "${input.name}": ${diff.names.join(", ")}`, before: diff.before, after: diff.after },
      now,
    );
    return { value: after, change: { ...siteWideChange, productIds: repriced } };
  });
}

export function deleteRetailer(db: Db, id: number, now = new Date()): Written<null> {
  return catalogueTransaction(db, () => {
    const before = storedRetailer(db, id);
    if (!before) throw new WriteRefused(404, "Retailer not found");
    const offers = offerCount(db, id);
    if (offers > 0) throw new WriteRefused(409, `Retailer "${before.name}" still has ${plural(offers, "offer")}; remove them first`);
    statement(db, "DELETE FROM retailers WHERE id = ?").run(id);
    recordAudit(db, { action: "delete", entity: "retailer", entityId: id, summary: `Deleted retailer "${before.name}"` }, now);
    return { value: null, change: siteWideChange };
  });
}
