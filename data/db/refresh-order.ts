/**
 * The offers the price refresh reads from their retailer pages, most watched first: products with
 * more active alerts, then more favourites, then more views and outbound clicks in the last 30
 * days; ties by product id. Not read: the seeded demo offers (invented prices) and offers a feed
 * confirmed within `feedFreshMs` (half the freshness window: the feed, read every few hours, keeps
 * them fresh; one it stopped confirming is read from its page well before it would go stale). An offer under the admin's price
 * override is read like any other: its listed price still moves.
 */
import type { Db } from "./client.ts";
import type { ProductPriceRow } from "./rows.ts";
import { statement } from "./statements.ts";
import type { PriceCheck } from "./price-writer.ts";

export interface OfferToRead {
  productId: number;
  retailerId: number;
  retailerName: string;
  url: string;
  /**
   * The page's validators to send back (If-None-Match / If-Modified-Since): only when the offer's
   * published price was read from this page and no reading of it waits for review, so a 304
   * confirms that price. null: read the page whole.
   */
  validators: { etag: string | null; lastModified: string | null } | null;
}

interface OfferRow {
  product_id: number;
  retailer_id: number;
  retailer_name: string;
  url: string;
  page_etag: string | null;
  page_last_modified: string | null;
  conditional: number;
}

const dayMs = 24 * 60 * 60 * 1000;
/** How far back views and clicks count towards a product's watch score. */
const interestDays = 30;
export function offersToRead(db: Db, now = new Date(), feedFreshMs = dayMs / 2): OfferToRead[] {
  const since = new Date(now.getTime() - interestDays * dayMs).toISOString();
  const feedFresh = new Date(now.getTime() - feedFreshMs).toISOString();
  const rows = statement<OfferRow>(
    db,
    `WITH alerts AS (
       SELECT product_id, count(*) AS n FROM price_alerts WHERE is_active = 1 AND confirmed_at IS NOT NULL GROUP BY product_id
     ), favourites AS (
       SELECT product_id, count(*) AS n FROM favorites GROUP BY product_id
     ), interest AS (
       SELECT product_id, count(*) AS n FROM (
         SELECT product_id FROM recently_viewed WHERE viewed_at >= @since
         UNION ALL
         SELECT product_id FROM user_behaviour WHERE action = 'affiliate_click' AND timestamp >= @since AND product_id IS NOT NULL
       ) GROUP BY product_id
     )
     SELECT pp.product_id, pp.retailer_id, r.name AS retailer_name, pp.url, pp.page_etag, pp.page_last_modified,
       pp.source = 'page' AND NOT EXISTS (
         SELECT 1 FROM price_holds h WHERE h.product_id = pp.product_id AND h.retailer_id = pp.retailer_id AND h.status = 'pending'
       ) AS conditional
     FROM product_prices pp
     JOIN retailers r ON r.id = pp.retailer_id
     LEFT JOIN alerts a ON a.product_id = pp.product_id
     LEFT JOIN favourites f ON f.product_id = pp.product_id
     LEFT JOIN interest i ON i.product_id = pp.product_id
     WHERE r.compares_prices = 1 AND pp.url <> '' AND pp.source <> 'demo'
       AND NOT (pp.source LIKE 'feed:%' AND pp.last_checked_at >= @feedFresh)
     ORDER BY coalesce(a.n, 0) DESC, coalesce(f.n, 0) DESC, coalesce(i.n, 0) DESC, pp.product_id, pp.retailer_id`,
  ).all({ since, feedFresh });
  return rows.map((row) => ({
    productId: row.product_id,
    retailerId: row.retailer_id,
    retailerName: row.retailer_name,
    url: row.url,
    validators:
      row.conditional === 1 && (row.page_etag !== null || row.page_last_modified !== null) ? { etag: row.page_etag, lastModified: row.page_last_modified } : null,
  }));
}

/**
 * Price checks that confirm offers whose pages answered 304 to the validators sent: each repeats
 * the offer's listed price as stored now. An offer whose price, source, validators or review
 * state changed since it was chosen is left alone: the 304 no longer speaks for its price.
 */
export function unchangedPageChecks(db: Db, offers: readonly Pick<OfferToRead, "productId" | "retailerId" | "validators">[]): PriceCheck[] {
  const find = statement<Pick<ProductPriceRow, "price_pence">>(
    db,
    `SELECT pp.price_pence FROM product_prices pp
     WHERE pp.product_id = ? AND pp.retailer_id = ? AND pp.source = 'page' AND pp.page_etag IS ? AND pp.page_last_modified IS ?
       AND NOT EXISTS (SELECT 1 FROM price_holds h WHERE h.product_id = pp.product_id AND h.retailer_id = pp.retailer_id AND h.status = 'pending')`,
  );
  return offers.flatMap((offer) => {
    const row = find.get(offer.productId, offer.retailerId, offer.validators?.etag ?? null, offer.validators?.lastModified ?? null);
    return row ? [{ productId: offer.productId, retailerId: offer.retailerId, pricePence: row.price_pence, inStock: null, source: "page" }] : [];
  });
}
