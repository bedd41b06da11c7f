/**
 * The "was" price through the real app and a real SQLite file: what GET /api/products/{slug} and
 * the product lists give as `originalPrice` (the struck-through price and "Save N%" on the page,
 * cards and favourites) and as `deal.wasPrice`, for price histories on either side of the rule's
 * bounds. The rule's every case is tested in data/domain/deal-truth.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ProductJson as Product } from "../../data/domain/catalogue-json.ts";
import { recomputeBestPrices } from "../../data/db/offers.ts";
import { startTestServer, type TestServer } from "./server.ts";

let api: TestServer;
let product: { id: number; slug: string };
let retailers: [number, number];
beforeAll(async () => {
  api = await startTestServer({ products: 20 });
  product = api.db.$client.prepare("SELECT id, slug FROM products WHERE (SELECT count(*) FROM product_prices WHERE product_id = products.id) >= 2 ORDER BY id LIMIT 1").get() as {
    id: number;
    slug: string;
  };
  const offers = api.db.$client.prepare("SELECT id, retailer_id FROM product_prices WHERE product_id = ? ORDER BY retailer_id").all(product.id) as { id: number; retailer_id: number }[];
  api.db.$client.prepare("DELETE FROM product_prices WHERE product_id = ? AND id NOT IN (?, ?)").run(product.id, offers[0]!.id, offers[1]!.id);
  retailers = [offers[0]!.retailer_id, offers[1]!.retailer_id];
});
afterAll(() => api.close());

const dayMs = 86_400_000;
/** Midnight (UTC) `days` days before today's. */
const midnightDaysAgo = (days: number) => new Date(Math.floor(Date.now() / dayMs) * dayMs - days * dayMs).toISOString();

/**
 * The first retailer sells at `first` (item, plus £2.99 stated delivery), the second at `second`
 * (delivered free), each claiming a was-price of £30.00; `points` are the item price history
 * ([retailer index, midnights ago, pence]). Then the product's best price is re-derived.
 */
function prices(first: number, second: number, points: [0 | 1, number, number][]): void {
  const sqlite = api.db.$client;
  const update = sqlite.prepare(
    `UPDATE product_prices SET price_pence = ?, delivery_pence = ?, original_price_pence = 3000, in_stock = 1, stale = 0, price_override = 0,
       last_checked_at = ? WHERE product_id = ? AND retailer_id = ?`,
  );
  update.run(first, 299, new Date().toISOString(), product.id, retailers[0]);
  update.run(second, 0, new Date().toISOString(), product.id, retailers[1]);
  sqlite.prepare("DELETE FROM price_history WHERE product_id = ?").run(product.id);
  const insert = sqlite.prepare("INSERT INTO price_history (product_id, retailer_id, price_pence, recorded_at) VALUES (?, ?, ?, ?)");
  for (const [index, days, pence] of points) insert.run(product.id, retailers[index], pence, midnightDaysAgo(days));
  recomputeBestPrices(api.db, [product.id]);
  api.cache.invalidate();
}

/** What the API says: the product's best price and was-price, its deal facts' was-price, and its card's in a list. */
async function shown() {
  const detail = await api.json<Product & { deal: { wasPrice: number | null } }>(`/api/products/${product.slug}`);
  const listed = (await api.json<Product[]>(`/api/products?limit=100`)).find((p) => p.id === product.id)!;
  return { best: detail.bestPrice, was: detail.originalPrice, dealWas: detail.deal.wasPrice, cardWas: listed.originalPrice };
}

describe("the was-price the API gives", () => {
  it("is the best offer's retailer's price to the door, held 28 whole days; 27 are not enough", async () => {
    // £14.00 + £2.99 for 40 days up to 60 days ago, then £10.00 + £2.99 = £12.99: the best price.
    prices(1000, 1500, [[0, 100, 1400], [0, 60, 1000], [1, 100, 1500]]);
    expect(await shown()).toEqual({ best: 12.99, was: 16.99, dealWas: 16.99, cardWas: 16.99 });
    prices(1000, 1500, [[0, 88, 1400], [0, 60, 1000], [1, 100, 1500]]);
    expect(await shown()).toEqual({ best: 12.99, was: 16.99, dealWas: 16.99, cardWas: 16.99 });
    prices(1000, 1500, [[0, 87, 1400], [0, 60, 1000], [1, 100, 1500]]);
    expect(await shown()).toEqual({ best: 12.99, was: null, dealWas: null, cardWas: null });
  });

  it("is none for another retailer's run, or from a retailer's claimed was-price alone", async () => {
    // The second retailer held £20.00 for months; the first, cheapest today, never charged more than now.
    prices(1000, 1500, [[0, 150, 1000], [1, 150, 2000], [1, 30, 1500]]);
    expect(await shown()).toEqual({ best: 12.99, was: null, dealWas: null, cardWas: null });
  });

  it("reaches back past the 90 days: a run ending five months ago stands, unless a higher price followed it", async () => {
    prices(1000, 1500, [[0, 200, 1400], [0, 150, 1000], [1, 200, 1500]]);
    expect(await shown()).toEqual({ best: 12.99, was: 16.99, dealWas: 16.99, cardWas: 16.99 });
    prices(1000, 1500, [[0, 200, 1400], [0, 150, 1000], [0, 40, 1450], [0, 35, 1000], [1, 200, 1500]]);
    expect(await shown()).toEqual({ best: 12.99, was: null, dealWas: null, cardWas: null });
  });
});
