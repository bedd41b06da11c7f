/**
 * The catalogue writer's price side: prices read from sources (affiliate feeds, retailer pages)
 * and the admin's review of held prices. Like every catalogue write, each call runs in one
 * IMMEDIATE transaction (catalogueTransaction), appends price history when an offer's price
 * moves, re-derives best prices, records an audit entry when it publishes something, and returns
 * what changed for the change signal (drop caches, check alerts, rebuild the pages).
 *
 * Rules:
 * - A checked price confirms the offer: its last-checked time becomes the check's time and it
 *   is no longer stale. A confirmation less than an hour after the last one writes nothing, so
 *   re-running an import or a refresh at once changes nothing.
 * - A price the hold rule (data/domain/price-hold.ts: beyond the hold factor, or marked for review
 *   by its source) holds is not published and does not confirm the offer. One pending hold per
 *   offer: a newer one replaces it.
 * - A source's repeat-delivery price and terms replace the stored ones (null: none); a check that
 *   gives none (a retailer page) keeps them. A repeat price above the one-off price the shopper
 *   then pays is dropped with its terms: it is no repeat discount.
 * - An offer not confirmed within the freshness window (24 hours by default) is marked stale (never the best price); an offer whose
 *   price the admin overrides does not go stale: the admin's price is not read from a source.
 */
import type { Db } from "./client.ts";
import { recordAudit } from "./audit.ts";
import { catalogueTransaction, WriteRefused, type CatalogueChange, type Written } from "./catalogue-writer/transaction.ts";
import { offerRetailers } from "./catalogue-writer/products.ts";
import { recomputeBestPrices } from "./offers.ts";
import { statement } from "./statements.ts";
import type { PriceHoldRow, ProductPriceRow, ProductRow, RetailerRow } from "./rows.ts";
import { formatPence, type Pence } from "../domain/money.ts";
import { defaultFreshForMs, effectivePence, freshnessText } from "../domain/offers.ts";
import { offerUrlProblem } from "../domain/retailers.ts";
import { defaultHoldPolicy, holdsForReview, isPriceJump, type HoldPolicy } from "../domain/price-hold.ts";

/** One price read from a source for an existing offer (product at retailer). */
export interface PriceCheck {
  productId: number;
  retailerId: number;
  /** The listed price the source gives. */
  pricePence: Pence;
  /** The was-price the source gives (kept only when above the price); undefined: keep the stored one. */
  originalPricePence?: Pence | null;
  /** null: the source does not say; keep the stored flag. */
  inStock: boolean | null;
  /** Mandatory delivery for one unit; undefined: keep the stored value. */
  deliveryPence?: Pence | null;
  /** page, or feed:<source name>. */
  source: string;
  /** The repeat-delivery item price the source gives (null: none); undefined: keep the stored one. */
  repeatPricePence?: Pence | null;
  /** The repeat-delivery terms, set with repeatPricePence (null: none); undefined: keep the stored ones. */
  repeatTerms?: string | null;
  /** The multi-buy in the site's words ("3 for 2"; null: none); undefined: keep the stored one. */
  multiBuy?: string | null;
  /** The member price and its scheme (null: none); undefined: keep the stored ones. */
  memberPricePence?: Pence | null;
  memberScheme?: string | null;
  /** Set: hold this check for review whatever its price, for this reason (a page price read with low confidence). */
  holdReason?: string;
}

export interface PriceCheckCounts {
  /** Checks of offers that exist. */
  checked: number;
  /** Offers whose price, was-price, stock, delivery, repeat-delivery price or terms, or multi-buy changed. */
  changed: number;
  /** Prices held for review. */
  held: number;
  /** Checks of offers that no longer exist (deleted meanwhile). */
  missing: number;
}

/** The stored offer as a price check compares with it. */
type OfferRow = Pick<
  ProductPriceRow,
  | "id"
  | "price_pence"
  | "original_price_pence"
  | "in_stock"
  | "delivery_pence"
  | "price_override"
  | "manual_price_pence"
  | "last_checked_at"
  | "stale"
  | "source"
  | "url"
  | "repeat_price_pence"
  | "repeat_terms"
  | "multi_buy"
  | "member_price_pence"
  | "member_scheme"
>;

/** A confirmation this soon after the last one is not written. */
const reconfirmAfterMs = 60 * 60 * 1000;

const emptyChange = (): { productIds: Set<number> } => ({ productIds: new Set<number>() });

function changeOf(productIds: Set<number>, db: Db): CatalogueChange {
  if (productIds.size === 0) return { productIds: [], categoryIds: [], siteWide: false };
  const ids = [...productIds].sort((a, b) => a - b);
  const categories = statement<Pick<ProductRow, "category_id">>(db, "SELECT DISTINCT category_id FROM products WHERE id IN (SELECT value FROM json_each(?))").all(
    JSON.stringify(ids),
  );
  return { productIds: ids, categoryIds: categories.map((row) => row.category_id).sort((a, b) => a - b), siteWide: false };
}

/**
 * Applies checked prices to their offers: publishes, confirms or holds each (see the rules
 * above). One transaction for the whole batch.
 */
export function recordPriceChecks(
  db: Db,
  checks: readonly PriceCheck[],
  policy: HoldPolicy = defaultHoldPolicy,
  now = new Date(),
): Written<PriceCheckCounts> {
  return catalogueTransaction(db, () => {
    const at = now.toISOString();
    const counts: PriceCheckCounts = { checked: 0, changed: 0, held: 0, missing: 0 };
    const { productIds } = emptyChange();
    const find = statement<OfferRow>(
      db,
      `SELECT id, price_pence, original_price_pence, in_stock, delivery_pence, price_override, manual_price_pence, last_checked_at, stale, source, url,
         repeat_price_pence, repeat_terms, multi_buy, member_price_pence, member_scheme
       FROM product_prices WHERE product_id = ? AND retailer_id = ?`,
    );
    for (const check of checks) {
      const offer = find.get(check.productId, check.retailerId);
      if (!offer) {
        counts.missing += 1;
        continue;
      }
      counts.checked += 1;
      if (holdsForReview(offer.price_pence, check, policy)) {
        holdPrice(db, check, offer, at);
        counts.held += 1;
        continue;
      }
      const outcome = applyCheck(db, check.productId, check.retailerId, offer, check, at, now);
      if (outcome.changed) counts.changed += 1;
      if (outcome.pageChanged) productIds.add(check.productId);
    }
    if (productIds.size > 0) recomputeBestPrices(db, [...productIds], now);
    if (counts.changed > 0 || counts.held > 0) {
      const source = [...new Set(checks.map((check) => check.source))].join(", ");
      recordAudit(
        db,
        {
          action: "update",
          entity: "product",
          entityId: checks.length === 1 ? (checks[0]?.productId ?? null) : null,
          summary: `Price check (${source}): ${counts.checked} checked, ${counts.changed} changed, ${counts.held} held for review${holdReasons(checks)}`,
        },
        now,
      );
    }
    return { value: counts, change: changeOf(productIds, db) };
  });
}

/** A retailer page's validators (ETag, Last-Modified) as read with a price check of its offer. */
export interface PageValidatorsRead {
  productId: number;
  retailerId: number;
  etag: string | null;
  lastModified: string | null;
}

/**
 * Stores the validators of pages whose price checks were just recorded, for the next refresh to
 * send back. An offer with a reading waiting for review keeps none, so its page is read whole
 * until a price from it is published. Nothing a visitor sees changes: no revision, no audit.
 */
export function recordPageValidators(db: Db, reads: readonly PageValidatorsRead[]): void {
  if (reads.length === 0) return;
  const store = statement(
    db,
    `UPDATE product_prices SET page_etag = CASE WHEN held THEN NULL ELSE @etag END, page_last_modified = CASE WHEN held THEN NULL ELSE @lastModified END
     FROM (SELECT EXISTS (SELECT 1 FROM price_holds WHERE product_id = @productId AND retailer_id = @retailerId AND status = 'pending') AS held)
     WHERE product_id = @productId AND retailer_id = @retailerId`,
  );
  db.$client.transaction(() => {
    for (const read of reads) store.run(read);
  })();
}

/** The reasons checks were held by their source (not by a price jump), for the audit line. */
function holdReasons(checks: readonly PriceCheck[]): string {
  const reasons = [...new Set(checks.flatMap((check) => (check.holdReason === undefined ? [] : [check.holdReason])))];
  return reasons.length === 0 ? "" : ` (${reasons.slice(0, 3).join("; ")}${reasons.length > 3 ? "; …" : ""})`;
}

interface CheckOutcome {
  /** The offer's price, was-price, stock, delivery, repeat-delivery price or terms, or multi-buy changed. */
  changed: boolean;
  /** Something its pages show changed (the above, the check time, or the stale mark). */
  pageChanged: boolean;
}

/** The stored offer as the domain prices it (its effective price: the manual one under an override). */
function pricingOf(retailerId: number, offer: OfferRow) {
  return {
    retailerId,
    pricePence: offer.price_pence,
    originalPricePence: null,
    inStock: true,
    priceOverride: offer.price_override === 1,
    manualPricePence: offer.manual_price_pence,
  };
}

/** Writes one check into its offer; appends history when the effective price moves. */
function applyCheck(db: Db, productId: number, retailerId: number, offer: OfferRow, check: PriceCheck, at: string, now: Date): CheckOutcome {
  const original =
    check.originalPricePence === undefined
      ? offer.original_price_pence
      : check.originalPricePence !== null && check.originalPricePence > check.pricePence
        ? check.originalPricePence
        : null;
  const inStock = check.inStock === null ? offer.in_stock : check.inStock ? 1 : 0;
  const delivery = check.deliveryPence === undefined ? offer.delivery_pence : check.deliveryPence;
  // A repeat price above the one-off price the shopper now pays is no repeat discount: it goes, with its terms.
  const oneOff = effectivePence({ ...pricingOf(retailerId, offer), pricePence: check.pricePence });
  const statedRepeat = check.repeatPricePence === undefined ? offer.repeat_price_pence : check.repeatPricePence;
  const repeatPrice = statedRepeat !== null && statedRepeat > oneOff ? null : statedRepeat;
  const repeatTerms = repeatPrice === null ? null : check.repeatPricePence === undefined ? offer.repeat_terms : (check.repeatTerms ?? null);
  const multiBuy = check.multiBuy === undefined ? offer.multi_buy : check.multiBuy;
  // A member price at or above the one-off price the shopper now pays is no member price: it goes, with its scheme.
  const statedMember = check.memberPricePence === undefined ? offer.member_price_pence : check.memberPricePence;
  const memberPrice = statedMember !== null && statedMember >= oneOff ? null : statedMember;
  const memberScheme = memberPrice === null ? null : check.memberPricePence === undefined ? offer.member_scheme : (check.memberScheme ?? null);
  const changed =
    offer.price_pence !== check.pricePence ||
    offer.original_price_pence !== original ||
    offer.in_stock !== inStock ||
    offer.delivery_pence !== delivery ||
    offer.repeat_price_pence !== repeatPrice ||
    offer.repeat_terms !== repeatTerms ||
    offer.multi_buy !== multiBuy ||
    offer.member_price_pence !== memberPrice ||
    offer.member_scheme !== memberScheme;
  const lastChecked = offer.last_checked_at === null ? Number.NEGATIVE_INFINITY : Date.parse(offer.last_checked_at);
  const recentlyConfirmed = now.getTime() - lastChecked < reconfirmAfterMs && offer.stale === 0;
  if (!changed && recentlyConfirmed && offer.source === check.source) return { changed: false, pageChanged: false };

  statement(
    db,
    `UPDATE product_prices SET price_pence = ?, original_price_pence = ?, in_stock = ?, delivery_pence = ?, source = ?,
       last_checked_at = ?, stale = 0, updated_at = CASE WHEN ? THEN ? ELSE updated_at END, repeat_price_pence = ?, repeat_terms = ?, multi_buy = ?,
       member_price_pence = ?, member_scheme = ? WHERE id = ?`,
  ).run(check.pricePence, original, inStock, delivery, check.source, at, changed ? 1 : 0, at, repeatPrice, repeatTerms, multiBuy, memberPrice, memberScheme, offer.id);
  const before = effectivePence(pricingOf(retailerId, offer));
  const after = oneOff;
  if (before !== after) {
    statement(db, "INSERT INTO price_history (product_id, retailer_id, price_pence, recorded_at) VALUES (?, ?, ?, ?)").run(productId, retailerId, after, at);
  }
  // A newer published price settles any pending hold of this offer.
  if (changed) {
    statement(db, "UPDATE price_holds SET status = 'superseded', decided_at = ? WHERE product_id = ? AND retailer_id = ? AND status = 'pending'").run(
      at,
      productId,
      retailerId,
    );
  }
  return { changed, pageChanged: true };
}

function holdPrice(db: Db, check: PriceCheck, offer: OfferRow, at: string): void {
  statement(db, "DELETE FROM price_holds WHERE product_id = ? AND retailer_id = ? AND status = 'pending'").run(check.productId, check.retailerId);
  statement(
    db,
    `INSERT INTO price_holds (product_id, retailer_id, published_price_pence, held_price_pence, original_price_pence, delivery_pence, in_stock,
       source, url, observed_at, status, reason)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'pending', ?)`,
  ).run(
    check.productId,
    check.retailerId,
    offer.price_pence,
    check.pricePence,
    check.originalPricePence ?? null,
    check.deliveryPence ?? null,
    check.inStock === null ? null : check.inStock ? 1 : 0,
    check.source,
    offer.url,
    at,
    check.holdReason ?? null,
  );
}

type HoldRow = Pick<
  PriceHoldRow,
  | "id"
  | "product_id"
  | "retailer_id"
  | "published_price_pence"
  | "held_price_pence"
  | "original_price_pence"
  | "delivery_pence"
  | "in_stock"
  | "source"
  | "url"
  | "observed_at"
  | "status"
  | "new_offer"
>;

/** A held price with the names of its product and retailer. */
type NamedHoldRow = HoldRow & { product_name: ProductRow["name"]; retailer_name: RetailerRow["name"] };

function pendingHold(db: Db, id: number): NamedHoldRow {
  const hold = statement<NamedHoldRow>(
    db,
    `SELECT h.id, h.product_id, h.retailer_id, h.published_price_pence, h.held_price_pence, h.original_price_pence, h.delivery_pence, h.in_stock,
       h.source, h.url, h.observed_at, h.status, h.new_offer, p.name AS product_name, r.name AS retailer_name
     FROM price_holds h JOIN products p ON p.id = h.product_id JOIN retailers r ON r.id = h.retailer_id WHERE h.id = ?`,
  ).get(id);
  if (!hold) throw new WriteRefused(404, "Held price not found");
  if (hold.status !== "pending") throw new WriteRefused(409, "This price was already reviewed");
  return hold;
}

export interface HoldDecision {
  id: number;
  status: "accepted" | "rejected";
}

/**
 * Publishes a held price as if its check had passed: the offer takes it (history, best price),
 * confirmed at the time it was observed. Refused when the offer is gone (404) or the hold was
 * already decided (409).
 */
export function acceptHeldPrice(db: Db, id: number, now = new Date()): Written<HoldDecision> {
  return catalogueTransaction(db, () => {
    const hold = pendingHold(db, id);
    const offer = statement<OfferRow>(
      db,
      `SELECT id, price_pence, original_price_pence, in_stock, delivery_pence, price_override, manual_price_pence, last_checked_at, stale, source, url,
         repeat_price_pence, repeat_terms, multi_buy, member_price_pence, member_scheme
       FROM product_prices WHERE product_id = ? AND retailer_id = ?`,
    ).get(hold.product_id, hold.retailer_id);
    if (!offer && hold.new_offer === 1) return acceptHeldNewOffer(db, hold, now);
    if (!offer) throw new WriteRefused(404, "The offer of this held price no longer exists");
    const check: PriceCheck = {
      productId: hold.product_id,
      retailerId: hold.retailer_id,
      pricePence: hold.held_price_pence,
      originalPricePence: hold.original_price_pence,
      inStock: hold.in_stock === null ? null : hold.in_stock === 1,
      deliveryPence: hold.delivery_pence,
      source: hold.source,
    };
    // Checked when observed; but a confirmation since then is not moved back.
    const observed = new Date(Math.max(Date.parse(hold.observed_at), offer.last_checked_at ? Date.parse(offer.last_checked_at) : 0));
    applyCheck(db, hold.product_id, hold.retailer_id, offer, check, observed.toISOString(), now);
    statement(db, "UPDATE price_holds SET status = 'accepted', decided_at = ? WHERE id = ?").run(now.toISOString(), id);
    recomputeBestPrices(db, [hold.product_id], now);
    recordAudit(
      db,
      {
        action: "update",
        entity: "product",
        entityId: hold.product_id,
        summary: `Accepted held price at ${hold.retailer_name} for "${hold.product_name}": ${formatPence(offer.price_pence)} -> ${formatPence(hold.held_price_pence)}`,
      },
      now,
    );
    return { value: { id, status: "accepted" }, change: changeOf(new Set([hold.product_id]), db) };
  });
}

/**
 * Accepting a held new offer adds it as observed (its first price point, best price, audit).
 * Refused (409) when prices are no longer compared at the retailer or its URL no longer fits its hosts.
 */
function acceptHeldNewOffer(db: Db, hold: NamedHoldRow, now: Date): Written<HoldDecision> {
  const retailer = offerRetailers(db, [hold.retailer_id]).get(hold.retailer_id);
  if (!retailer || !retailer.comparesPrices) throw new WriteRefused(409, `Prices are no longer compared at ${hold.retailer_name}`);
  const problem = offerUrlProblem(hold.url, retailer);
  if (problem !== null) throw new WriteRefused(409, `This offer cannot be added: ${problem}`);
  insertOffer(
    db,
    {
      productId: hold.product_id,
      retailerId: hold.retailer_id,
      url: hold.url,
      pricePence: hold.held_price_pence,
      originalPricePence: hold.original_price_pence,
      inStock: hold.in_stock !== 0,
      deliveryPence: hold.delivery_pence,
      source: hold.source,
    },
    hold.observed_at,
  );
  statement(db, "UPDATE price_holds SET status = 'accepted', decided_at = ? WHERE id = ?").run(now.toISOString(), hold.id);
  recomputeBestPrices(db, [hold.product_id], now);
  recordAudit(
    db,
    {
      action: "update",
      entity: "product",
      entityId: hold.product_id,
      summary: `Accepted held new offer at ${hold.retailer_name} for "${hold.product_name}" at ${formatPence(hold.held_price_pence)}`,
    },
    now,
  );
  return { value: { id: hold.id, status: "accepted" }, change: changeOf(new Set([hold.product_id]), db) };
}

/** Drops a held price: the offer keeps its published price (and stays unconfirmed by that check). */
export function rejectHeldPrice(db: Db, id: number, now = new Date()): Written<HoldDecision> {
  return catalogueTransaction(db, () => {
    const hold = pendingHold(db, id);
    statement(db, "UPDATE price_holds SET status = 'rejected', decided_at = ? WHERE id = ?").run(now.toISOString(), id);
    recordAudit(
      db,
      {
        action: "update",
        entity: "product",
        entityId: hold.product_id,
        summary: `Rejected held price ${formatPence(hold.held_price_pence)} at ${hold.retailer_name} for "${hold.product_name}" (kept ${
          hold.published_price_pence === null ? "no price" : formatPence(hold.published_price_pence)
        })`,
      },
      now,
    );
    return { value: { id, status: "rejected" }, change: { productIds: [], categoryIds: [], siteWide: false } };
  });
}

/**
 * Marks offers not confirmed within `freshForMs` as stale (their pages say so, and they stop
 * counting as best price): an offer confirmed exactly `freshForMs` ago is still current. Offers
 * under a manual override never go stale.
 */
export function markStaleOffers(db: Db, now = new Date(), freshForMs = defaultFreshForMs): Written<{ marked: number }> {
  return catalogueTransaction(db, () => {
    const cutoff = new Date(now.getTime() - freshForMs).toISOString();
    const rows = statement<Pick<ProductPriceRow, "product_id">>(
      db,
      `UPDATE product_prices SET stale = 1
       WHERE stale = 0 AND price_override = 0 AND coalesce(last_checked_at, updated_at) < ?
       RETURNING product_id`,
    ).all(cutoff);
    if (rows.length === 0) return { value: { marked: 0 }, change: { productIds: [], categoryIds: [], siteWide: false } };
    const productIds = new Set(rows.map((row) => row.product_id));
    recomputeBestPrices(db, [...productIds], now);
    recordAudit(
      db,
      {
        action: "update",
        entity: "product",
        entityId: null,
        summary: `Marked ${rows.length} ${rows.length === 1 ? "offer" : "offers"} stale (not confirmed for ${freshnessText(freshForMs)})`,
      },
      now,
    );
    return { value: { marked: rows.length }, change: changeOf(productIds, db) };
  });
}

/**
 * Re-derives every product's best-price facts as of `now`: run once a day. A "was" price stands
 * only while its run of 28 days ended no more than six calendar months ago, so with no price
 * written it lapses as the days go by. The products whose row changed are the change, audited as
 * one entry; nothing changed, nothing written.
 */
export function rederiveDailyPrices(db: Db, now = new Date()): Written<{ changed: number }> {
  return catalogueTransaction(db, () => {
    const changed = recomputeBestPrices(db, undefined, now);
    if (changed.length === 0) return { value: { changed: 0 }, change: { productIds: [], categoryIds: [], siteWide: false } };
    recordAudit(
      db,
      {
        action: "update",
        entity: "product",
        entityId: null,
        summary: `Was-prices re-checked for a new day: ${changed.length === 1 ? "1 product" : `${changed.length} products`} changed (a was-price needs a run of 28 days at that price that ended no more than 6 months ago)`,
      },
      now,
    );
    return { value: { changed: changed.length }, change: changeOf(new Set(changed), db) };
  });
}

/** A source's offer for a product that has none at that retailer yet. */
export interface NewOffer {
  productId: number;
  retailerId: number;
  /** The retailer's product page: must be on one of the retailer's hosts. */
  url: string;
  pricePence: Pence;
  originalPricePence: Pence | null;
  inStock: boolean;
  deliveryPence: Pence | null;
  source: string;
  /** The repeat-delivery item price, when the source gives one (kept only when at most the price). */
  repeatPricePence?: Pence | null;
  repeatTerms?: string | null;
  /** The multi-buy in the site's words, when the source gives one. */
  multiBuy?: string | null;
  /** The member price and its scheme, when the source gives them (kept only below the price, with a scheme). */
  memberPricePence?: Pence | null;
  memberScheme?: string | null;
}

/** Inserts a new offer with its first price point; the caller re-derives the best price. */
function insertOffer(db: Db, offer: NewOffer, at: string): void {
  const original = offer.originalPricePence !== null && offer.originalPricePence > offer.pricePence ? offer.originalPricePence : null;
  const repeatPrice = offer.repeatPricePence !== undefined && offer.repeatPricePence !== null && offer.repeatPricePence <= offer.pricePence ? offer.repeatPricePence : null;
  const memberPrice =
    offer.memberPricePence !== undefined && offer.memberPricePence !== null && offer.memberPricePence < offer.pricePence && (offer.memberScheme ?? null) !== null
      ? offer.memberPricePence
      : null;
  statement(
    db,
    `INSERT INTO product_prices (product_id, retailer_id, price_pence, original_price_pence, url, in_stock, free_delivery, delivery_pence,
       updated_at, last_checked_at, stale, source, repeat_price_pence, repeat_terms, multi_buy, member_price_pence, member_scheme)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?, ?, ?, ?)`,
  ).run(
    offer.productId,
    offer.retailerId,
    offer.pricePence,
    original,
    offer.url,
    offer.inStock ? 1 : 0,
    offer.deliveryPence === 0 ? 1 : 0,
    offer.deliveryPence,
    at,
    at,
    offer.source,
    repeatPrice,
    repeatPrice === null ? null : (offer.repeatTerms ?? null),
    offer.multiBuy ?? null,
    memberPrice,
    memberPrice === null ? null : offer.memberScheme!,
  );
  statement(db, "INSERT INTO price_history (product_id, retailer_id, price_pence, recorded_at) VALUES (?, ?, ?, ?)").run(
    offer.productId,
    offer.retailerId,
    offer.pricePence,
    at,
  );
}

/**
 * The listed price a new offer is held against: that of the product's best offer (its lowest
 * in-stock total), as a price check is held against its offer's published price; null when the
 * product has no best offer, so there is nothing to compare with.
 */
function bestListedPence(db: Db, productId: number): Pence | null {
  const row = statement<Pick<ProductPriceRow, "price_pence" | "price_override" | "manual_price_pence">>(
    db,
    `SELECT pp.price_pence, pp.price_override, pp.manual_price_pence FROM products p
     JOIN product_prices pp ON pp.product_id = p.id AND pp.retailer_id = p.best_retailer_id WHERE p.id = ?`,
  ).get(productId);
  if (!row) return null;
  return row.price_override === 1 && row.manual_price_pence !== null ? row.manual_price_pence : row.price_pence;
}

/**
 * Adds an offer from a source to an existing product (its first price point, best price, audit),
 * or holds it for review like a price check: when its price is beyond the hold factor of the
 * product's best listed price, it waits in the review list (held: true) and only accepting it
 * adds the offer. The same held offer seen again (same price) writes nothing.
 * Refused when the URL is not on one of the retailer's hosts (400), when prices are not compared
 * there (400), when the product already has an offer at that retailer (409), 404 when it is gone.
 */
export function addOffer(
  db: Db,
  offer: NewOffer,
  now = new Date(),
  policy: HoldPolicy = defaultHoldPolicy,
): Written<{ productId: number; retailerId: number; held: boolean }> {
  return catalogueTransaction<{ productId: number; retailerId: number; held: boolean }>(db, () => {
    const product = statement<Pick<ProductRow, "name">>(db, "SELECT name FROM products WHERE id = ?").get(offer.productId);
    if (!product) throw new WriteRefused(404, "Product not found");
    const retailer = offerRetailers(db, [offer.retailerId]).get(offer.retailerId);
    if (!retailer || !retailer.comparesPrices) throw new WriteRefused(400, "Prices are not compared at this retailer");
    const problem = offerUrlProblem(offer.url, retailer);
    if (problem !== null) throw new WriteRefused(400, `"${product.name}" at ${retailer.name} not added: ${problem}`);
    if (statement(db, "SELECT 1 FROM product_prices WHERE product_id = ? AND retailer_id = ?").get(offer.productId, offer.retailerId) !== undefined) {
      throw new WriteRefused(409, `"${product.name}" already has an offer at ${retailer.name}`);
    }
    const at = now.toISOString();
    const value = { productId: offer.productId, retailerId: offer.retailerId };
    const best = bestListedPence(db, offer.productId);
    if (best !== null && isPriceJump(best, offer.pricePence, policy)) {
      const pending = statement<Pick<PriceHoldRow, "held_price_pence">>(
        db,
        "SELECT held_price_pence FROM price_holds WHERE product_id = ? AND retailer_id = ? AND status = 'pending' AND new_offer = 1",
      ).get(offer.productId, offer.retailerId);
      if (pending?.held_price_pence === offer.pricePence) return { value: { ...value, held: true }, change: changeOf(new Set(), db) };
      statement(db, "DELETE FROM price_holds WHERE product_id = ? AND retailer_id = ? AND status = 'pending'").run(offer.productId, offer.retailerId);
      statement(
        db,
        `INSERT INTO price_holds (product_id, retailer_id, published_price_pence, held_price_pence, original_price_pence, delivery_pence, in_stock,
           source, url, observed_at, status, new_offer)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'pending', 1)`,
      ).run(offer.productId, offer.retailerId, best, offer.pricePence, offer.originalPricePence, offer.deliveryPence, offer.inStock ? 1 : 0, offer.source, offer.url, at);
      recordAudit(
        db,
        {
          action: "update",
          entity: "product",
          entityId: offer.productId,
          summary: `Held a new offer at ${retailer.name} for "${product.name}" at ${formatPence(offer.pricePence)} for review (best price ${formatPence(best)}; from ${offer.source})`,
        },
        now,
      );
      return { value: { ...value, held: true }, change: changeOf(new Set(), db) };
    }
    insertOffer(db, offer, at);
    recomputeBestPrices(db, [offer.productId], now);
    recordAudit(
      db,
      {
        action: "update",
        entity: "product",
        entityId: offer.productId,
        summary: `Added offer at ${retailer.name} for "${product.name}" at ${formatPence(offer.pricePence)} (from ${offer.source})`,
      },
      now,
    );
    return { value: { ...value, held: false }, change: changeOf(new Set([offer.productId]), db) };
  });
}
