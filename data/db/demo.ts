/**
 * The seeded demo catalogue (data/db/seed.ts) as the owner sees and ends it: demo products
 * (products.demo), demo offers (product_prices.source 'demo') and demo vouchers (vouchers.demo).
 *
 * Clearing the demo is a catalogue write (one transaction, audited, a site-wide change):
 * - every demo offer goes, with its price history (the history of that product at that retailer);
 * - a demo product left with no offer goes too (its favourites, alerts and views cascade);
 * - a demo product with an offer of the owner's (added by hand, from a feed or a page) stays and
 *   becomes the owner's; its price history restarts from its offers' current prices, because the
 *   demo's invented history must not back a "lowest in 90 days" or a "was" price; its best price
 *   is re-derived;
 * - demo vouchers go;
 * - retailers, categories, affiliate IDs, subscribers and the owner's products stay.
 */
import type { Db } from "./client.ts";
import { recordAudit } from "./audit.ts";
import { catalogueTransaction, type Written } from "./catalogue-writer/transaction.ts";
import { recomputeBestPrices } from "./offers.ts";
import { statement } from "./statements.ts";
import type { Pence } from "../domain/money.ts";

/** The price source that marks a demo offer. */
export const demoSource = "demo";

export interface DemoCounts {
  /** Whether anything of the demo is left (a product, an offer or a voucher). */
  demo: boolean;
  /** Demo products. */
  products: number;
  /** Demo products with an offer of the owner's: clearing the demo keeps them as the owner's. */
  keptProducts: number;
  /** Demo offers. */
  offers: number;
  /** Demo vouchers. */
  vouchers: number;
}

/** What is left of the demo catalogue, in one query. */
export function demoCounts(db: Db): DemoCounts {
  const row = statement<Omit<DemoCounts, "demo">>(
    db,
    `SELECT (SELECT count(*) FROM products WHERE demo = 1) AS products,
       (SELECT count(*) FROM products p WHERE p.demo = 1
          AND EXISTS (SELECT 1 FROM product_prices pp WHERE pp.product_id = p.id AND pp.source <> 'demo')) AS keptProducts,
       (SELECT count(*) FROM product_prices WHERE source = 'demo') AS offers,
       (SELECT count(*) FROM vouchers WHERE demo = 1) AS vouchers`,
  ).get()!;
  return { demo: row.products + row.offers + row.vouchers > 0, ...row };
}

/** Whether any demo offer is published: the public pages then say the prices are illustrative. */
export function hasDemoOffers(db: Db): boolean {
  return statement<{ found: number }>(db, "SELECT EXISTS (SELECT 1 FROM product_prices WHERE source = 'demo') AS found").get()!.found === 1;
}

/** One demo offer as the demo refresher moves it. */
export interface DemoOffer {
  productId: number;
  retailerId: number;
  pricePence: Pence;
  /** The retailer's stated was-price (null: none). */
  originalPricePence: Pence | null;
  /** The latest recorded price other than the current one (null: none). */
  earlierPence: Pence | null;
  /** The first recorded price (the current one when none is recorded). */
  anchorPence: Pence;
  /** When it was last confirmed (ISO-8601). */
  checkedAt: string;
}

/** Every demo offer, in product and retailer order. */
export function demoOffers(db: Db): DemoOffer[] {
  return statement<DemoOffer>(
    db,
    `SELECT pp.product_id AS productId, pp.retailer_id AS retailerId, pp.price_pence AS pricePence, pp.original_price_pence AS originalPricePence,
       (SELECT h.price_pence FROM price_history h WHERE h.product_id = pp.product_id AND h.retailer_id = pp.retailer_id AND h.price_pence <> pp.price_pence
          ORDER BY h.recorded_at DESC, h.id DESC LIMIT 1) AS earlierPence,
       coalesce((SELECT h.price_pence FROM price_history h WHERE h.product_id = pp.product_id AND h.retailer_id = pp.retailer_id
          ORDER BY h.recorded_at, h.id LIMIT 1), pp.price_pence) AS anchorPence,
       coalesce(pp.last_checked_at, pp.updated_at) AS checkedAt
     FROM product_prices pp WHERE pp.source = 'demo' ORDER BY pp.product_id, pp.retailer_id`,
  ).all();
}

/** When the least recently confirmed demo offer was confirmed (ISO-8601); null when there is none. */
export function oldestDemoCheck(db: Db): string | null {
  const row = statement<{
    checkedAt: string | null;
  }>(db, "SELECT min(coalesce(last_checked_at, updated_at)) AS checkedAt FROM product_prices WHERE source = 'demo'").get()!;
  return row.checkedAt;
}

export interface DemoClearCounts {
  /** Demo products deleted (they had no offer of the owner's). */
  products: number;
  /** Demo products kept because they have an offer of the owner's: now the owner's. */
  keptProducts: number;
  /** Demo offers deleted. */
  offers: number;
  /** Price points deleted: the demo offers' and the kept products' earlier history. */
  historyPoints: number;
  /** Demo vouchers deleted. */
  vouchers: number;
}

const plural = (count: number, one: string) => `${count} ${count === 1 ? one : `${one}s`}`;

/** Removes the demo catalogue (see the module comment); a second call finds nothing and writes nothing. */
export function clearDemoCatalogue(db: Db, now = new Date()): Written<DemoClearCounts> {
  return catalogueTransaction(db, () => {
    const ofDemoOffer = `EXISTS (SELECT 1 FROM product_prices pp WHERE pp.product_id = price_history.product_id
      AND pp.retailer_id = price_history.retailer_id AND pp.source = 'demo')`;
    const historyPoints = statement(db, `DELETE FROM price_history WHERE ${ofDemoOffer}`).run().changes;
    // A held price of a demo offer has no offer to go to once it is gone.
    statement(
      db,
      `DELETE FROM price_holds WHERE status = 'pending' AND EXISTS (SELECT 1 FROM product_prices pp
         WHERE pp.product_id = price_holds.product_id AND pp.retailer_id = price_holds.retailer_id AND pp.source = 'demo')`,
    ).run();
    const lostOffers = statement<{ product_id: number }>(db, "DELETE FROM product_prices WHERE source = 'demo' RETURNING product_id").all().map(
      (row) => row.product_id,
    );
    const products = statement(db, "DELETE FROM products WHERE demo = 1 AND NOT EXISTS (SELECT 1 FROM product_prices pp WHERE pp.product_id = products.id)").run().changes;
    const kept = statement<{ id: number }>(db, "UPDATE products SET demo = 0 WHERE demo = 1 RETURNING id").all().map((row) => row.id);
    const vouchers = statement(db, "DELETE FROM vouchers WHERE demo = 1").run().changes;
    const value: DemoClearCounts = { products, keptProducts: kept.length, offers: lostOffers.length, historyPoints, vouchers };
    if (products + kept.length + lostOffers.length + vouchers === 0) {
      return { value, change: { productIds: [], categoryIds: [], siteWide: false } };
    }

    if (kept.length > 0) {
      const keptList = JSON.stringify(kept);
      value.historyPoints += statement(db, "DELETE FROM price_history WHERE product_id IN (SELECT value FROM json_each(?))").run(keptList).changes;
      statement(
        db,
        `INSERT INTO price_history (product_id, retailer_id, price_pence, recorded_at)
         SELECT product_id, retailer_id, CASE WHEN price_override = 1 AND manual_price_pence IS NOT NULL THEN manual_price_pence ELSE price_pence END,
           updated_at
         FROM product_prices WHERE product_id IN (SELECT value FROM json_each(?))`,
      ).run(keptList);
    }
    // The products still there that lost an offer (the owner's and the kept ones): best prices anew.
    const repriced = (
      statement<{
        id: number;
      }>(db, "SELECT id FROM products WHERE id IN (SELECT value FROM json_each(?)) ORDER BY id").all(JSON.stringify([...new Set([...lostOffers, ...kept])]))
    ).map((row) => row.id);
    if (repriced.length > 0) recomputeBestPrices(db, repriced, now);
    recordAudit(
      db,
      {
        action: "delete",
        entity: "product",
        entityId: null,
        summary:
          `Cleared the demo catalogue: ${plural(products, "product")}, ${plural(lostOffers.length, "offer")} (${plural(value.historyPoints, "price point")}) ` +
          `and ${plural(vouchers, "voucher")} removed; ${plural(kept.length, "product")} with your own offers kept`,
      },
      now,
    );
    // Pages disappear and every page loses its demo line: a full build.
    return { value, change: { productIds: repriced, categoryIds: [], siteWide: true } };
  });
}
