/**
 * Product pages' data in a build pass: read a batch at a time, each page gets exactly what one
 * read of the whole catalogue gives it (product, offers, sizes, history, pricing, deal facts),
 * whatever order the pages ask in; a pass lists only its own products.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { tempDb, type TempDb } from "../../data/db/fixtures/temp-db.ts";
import { dealFactsFor } from "../../data/db/deal-facts.ts";
import { readOfferPricing } from "../../data/db/offer-pricing.ts";
import { defaultHistoryDays, loadProductPages } from "../../data/db/product-pages.ts";
import { currentBuildPass, endBuildPass, startBuildPass } from "../../data/site-build-pass.ts";
import { productPageBatchSize, productPageData, productPageKeysOfPass } from "./build-data.ts";

let temp: TempDb;
const now = new Date();
/** More than two batches, the last one short. */
const productCount = productPageBatchSize * 2 + 37;

beforeAll(async () => {
  temp = await tempDb(productCount, now);
});

afterEach(() => endBuildPass());
afterAll(() => temp.remove());

/** Every product page's data as one read of the whole catalogue gives it, by product id. */
function wholeCatalogue() {
  const pages = loadProductPages(temp.db, { now, historyDays: defaultHistoryDays });
  const pricing = readOfferPricing(temp.db, null);
  const dealFacts = dealFactsFor(temp.db, null, now, new Map(pages.map((page) => [page.product.id, page.history])), pricing);
  return new Map(
    pages.map((page) => [page.product.id, { ...page, pricing: pricing.get(page.product.id) ?? [], dealFacts: dealFacts.get(page.product.id) }]),
  );
}

describe("product pages' data in a build pass", () => {
  it("gives each page what one read of the whole catalogue gives it, batch by batch and in any order", () => {
    const expected = wholeCatalogue();
    expect(expected.size).toBe(productCount);
    startBuildPass({ databaseFile: temp.file, productIds: null });
    const keys = productPageKeysOfPass();
    expect(keys.map(({ id }) => id)).toEqual([...expected.keys()].sort((a, b) => a - b));
    expect(keys.map(({ slug }) => slug)).toEqual(keys.map(({ id }) => expected.get(id)!.product.slug));
    // In the pass's order (as Astro renders), then the last batch, the first and the middle again
    // (batches read earlier and dropped are read again, the same).
    const order = [...keys, ...keys.slice(-5), ...keys.slice(0, 5), ...keys.slice(productPageBatchSize, productPageBatchSize + 5)];
    for (const { id } of order) expect(productPageData(id, now)).toEqual(expected.get(id));
    expect(currentBuildPass()!.productPages).toEqual(keys);
  });

  it("lists and reads only a fast pass's products, by id, skipping ids that have no product", () => {
    const expected = wholeCatalogue();
    const ids = [...expected.keys()].sort((a, b) => a - b);
    const wanted = [ids[productPageBatchSize + 3]!, ids[2]!, ids.at(-1)!];
    startBuildPass({ databaseFile: temp.file, productIds: [...wanted, 999_999_999] });
    const keys = productPageKeysOfPass();
    expect(keys.map(({ id }) => id)).toEqual([...wanted].sort((a, b) => a - b));
    for (const id of wanted) expect(productPageData(id, now)).toEqual(expected.get(id));
    expect(() => productPageData(ids[0]!, now)).toThrow(/has no page/);
  });
});
