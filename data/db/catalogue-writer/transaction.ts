/**
 * The one write path of the catalogue: products with their offers (products.ts), categories,
 * retailers, vouchers and affiliate IDs, one module each. Admin screens, imports and the price
 * refresh all write through them, so every write
 * - runs in one IMMEDIATE transaction (it holds the write lock from the start, so the checks it
 *   makes cannot be overtaken by another writer before it stores),
 * - is validated against the database (known category and retailers, unique slugs, nothing
 *   deleted that products still use) and refused with a `WriteRefused` that changes nothing,
 * - appends to price_history whenever an offer's effective price changes,
 * - re-derives best price, best retailer and original price with the domain rule the pages use
 *   (data/domain/offers.ts, through recomputeBestPrices),
 * - records an audit entry,
 * - and returns what changed, which the caller hands to the change signal after the commit
 *   (drop cached responses, check price alerts, rebuild the affected pages).
 * This module holds what they share: the transaction, the refusal and the change they return.
 */
import type { Db } from "../client.ts";
import { bumpCatalogueRevision } from "../catalogue-revision.ts";

/** What a committed write changed, for the change signal. */
export interface CatalogueChange {
  /** Products whose public data changed (their pages, and the lists they appear in). */
  productIds: readonly number[];
  /** Categories whose product lists changed (a product's old and new category when it moves). */
  categoryIds: readonly number[];
  /**
   * Whether something every page shows changed (the category menu, retailer names, affiliate
   * IDs in every link, vouchers) or a page disappeared: every page must be rebuilt.
   */
  siteWide: boolean;
  /**
   * The catalogue revisions the writes behind this change moved to (one per committed write), so
   * the change signal can tell a batch of this process's own writes from another process's.
   */
  revisions?: readonly number[];
}

/** A write refused before anything was stored: bad reference (400), missing (404), conflict (409). */
export class WriteRefused extends Error {
  readonly status: 400 | 404 | 409;

  constructor(status: 400 | 404 | 409, message: string) {
    super(message);
    this.name = "WriteRefused";
    this.status = status;
  }
}

export interface Written<T> {
  value: T;
  change: CatalogueChange;
}

export const noChange: CatalogueChange = { productIds: [], categoryIds: [], siteWide: false };

/** Everything several writes changed, as one change (a batch job signals once, at its end). */
export function mergeChanges(changes: readonly CatalogueChange[]): CatalogueChange {
  const productIds = new Set<number>();
  const categoryIds = new Set<number>();
  const revisions = new Set<number>();
  let siteWide = false;
  for (const change of changes) {
    for (const id of change.productIds) productIds.add(id);
    for (const id of change.categoryIds) categoryIds.add(id);
    for (const revision of change.revisions ?? []) revisions.add(revision);
    siteWide ||= change.siteWide;
  }
  const sorted = (ids: Set<number>) => [...ids].sort((a, b) => a - b);
  return { productIds: sorted(productIds), categoryIds: sorted(categoryIds), siteWide, revisions: sorted(revisions) };
}

/** Whether the change touches anything a page shows. */
export const isChange = (change: CatalogueChange) => change.siteWide || change.productIds.length > 0 || change.categoryIds.length > 0;
export const siteWideChange: CatalogueChange = { productIds: [], categoryIds: [], siteWide: true };

/**
 * Runs `write` in one IMMEDIATE transaction (all or nothing); a write that changed something
 * moves the catalogue revision in the same transaction, so other processes' watchers notice it.
 */
export function catalogueTransaction<T>(db: Db, write: () => Written<T>): Written<T> {
  return db.$client
    .transaction(() => {
      const written = write();
      const { change } = written;
      if (!isChange(change)) return written;
      const revision = bumpCatalogueRevision(db);
      return { ...written, change: { ...change, revisions: [revision] } };
    })
    .immediate();
}

export const plural = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`;
