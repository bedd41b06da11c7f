/**
 * POST /api/basket/quote over a real server and SQLite file: the cheapest split of a basket and its
 * cheapest single shop at the price to the door, from the offers that may be compared now (in
 * stock, price current), with each retailer's delivery rule on its order; products gone from the
 * catalogue and products nobody stocks said apart; the per-client limit; nothing stored.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BasketQuoteResponse } from "../http/responses.ts";
import { offerUrl } from "../../data/db/fixtures/temp-db.ts";
import { startTestServer, type TestServer } from "./server.ts";

let api: TestServer;
let amazon: number;
let petsAtHome: number;
let categoryId: number;
/** Products made for these tests, by name. */
const ids: Record<string, number> = {};

const sql = (text: string, ...params: unknown[]) => api.db.$client.prepare(text).run(...params);

async function createProduct(name: string, offers: { retailerId: number; price: number; inStock?: boolean; repeatPrice?: number; multiBuy?: string }[]): Promise<number> {
  const response = await api.admin("POST", "/api/products", {
    name,
    description: "",
    image: "",
    brand: "Basket Test",
    categoryId,
    rating: 4,
    reviewCount: 1,
    retailerLinks: offers.map(({ retailerId, price, inStock = true, repeatPrice, multiBuy }) => ({
      retailerId,
      affiliateUrl: offerUrl(api.db, retailerId, name.toLowerCase().replaceAll(" ", "-")),
      price,
      originalPrice: null,
      inStock,
      priceOverride: false,
      manualPrice: null,
      freeDelivery: false,
      ...(repeatPrice === undefined ? {} : { repeatPrice }),
      ...(multiBuy === undefined ? {} : { multiBuy }),
    })),
  });
  expect(response.status, await response.clone().text()).toBe(201);
  return ((await response.json()) as { id: number }).id;
}

function quote(lines: unknown, server = api): Promise<Response> {
  return fetch(`${server.baseUrl}/api/basket/quote`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: server.baseUrl },
    body: JSON.stringify({ lines }),
  });
}

async function quoted(lines: unknown): Promise<BasketQuoteResponse> {
  const response = await quote(lines);
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as BasketQuoteResponse;
}

/** A plan as retailer name → its products' names and quantities, and its total. */
const shape = (plan: BasketQuoteResponse["cheapest"], quoteAnswer: BasketQuoteResponse) =>
  plan && {
    total: plan.total,
    orders: plan.orders.map((order) => ({
      retailer: order.retailer.name,
      lines: order.lines.map((line) => `${line.quantity} × ${quoteAnswer.products.find((product) => product.id === line.productId)!.name}`),
      delivery: order.delivery,
      total: order.total,
    })),
  };

beforeAll(async () => {
  api = await startTestServer({ products: 30 });
  const retailerId = (key: string) => (api.db.$client.prepare("SELECT id FROM retailers WHERE key = ?").get(key) as { id: number }).id;
  amazon = retailerId("amazon");
  petsAtHome = retailerId("pets-at-home");
  categoryId = (api.db.$client.prepare("SELECT id FROM categories WHERE slug = 'dog-food'").get() as { id: number }).id;
  // Amazon: £3.99, free from £39.00. Pets at Home: £3.99 whatever the order.
  sql("UPDATE retailers SET delivery_pence = 399, free_delivery_from_pence = 3900 WHERE id = ?", amazon);
  sql("UPDATE retailers SET delivery_pence = 399, free_delivery_from_pence = NULL WHERE id = ?", petsAtHome);
  ids.kibble = await createProduct("Basket Kibble", [
    { retailerId: amazon, price: 20 },
    { retailerId: petsAtHome, price: 19.5 },
  ]);
  ids.treats = await createProduct("Basket Treats", [
    { retailerId: amazon, price: 19 },
    { retailerId: petsAtHome, price: 18.5, repeatPrice: 15 },
  ]);
  ids.toy = await createProduct("Basket Toy", [{ retailerId: petsAtHome, price: 5 }]);
  ids.bed = await createProduct("Basket Bed", [
    { retailerId: amazon, price: 45 },
    { retailerId: petsAtHome, price: 60 },
  ]);
  ids.gone = await createProduct("Basket Sold Out", [{ retailerId: amazon, price: 9, inStock: false }]);
  ids.stale = await createProduct("Basket Stale", [{ retailerId: amazon, price: 9 }]);
  sql("UPDATE product_prices SET stale = 1 WHERE product_id = ?", ids.stale);
});
afterAll(() => api.close());

describe("POST /api/basket/quote", () => {
  it("buys both at the shop whose free-delivery threshold the pair reaches, though each is cheaper elsewhere", async () => {
    const answer = await quoted([
      { productId: ids.kibble, quantity: 1 },
      { productId: ids.treats, quantity: 1 },
    ]);
    // Amazon: £20.00 + £19.00 = £39.00, exactly on its threshold: free. Pets at Home: £38.00 + £3.99.
    expect(shape(answer.cheapest, answer)).toEqual({
      total: 39,
      orders: [{ retailer: "Amazon", lines: ["1 × Basket Kibble", "1 × Basket Treats"], delivery: 0, total: 39 }],
    });
    expect(shape(answer.singleShop, answer)).toEqual(shape(answer.cheapest, answer));
    expect(answer.saving).toBe(0);
    expect(answer.exact).toBe(true);
    expect(answer.lowerBound).toBe(39);
    expect(answer.products.map((product) => [product.name, product.quantity, product.repeat])).toEqual([
      ["Basket Kibble", 1, false],
      ["Basket Treats", 1, false],
    ]);
    expect(answer.unavailable).toEqual([]);
    expect(answer.removed).toEqual([]);
    // Each line links to the retailer's own offer, and says what it costs.
    const stored = api.db.$client.prepare("SELECT url FROM product_prices WHERE product_id = ? AND retailer_id = ?").get(ids.kibble, amazon) as { url: string };
    expect(answer.cheapest!.orders[0]!.lines[0]).toEqual({ productId: ids.kibble, quantity: 1, unitPrice: 20, linePrice: 20, repeat: false, multiBuySaving: 0, url: stored.url });
    expect(answer.cheapest!.orders[0]!.retailer).toEqual(expect.objectContaining({ id: amazon, key: "amazon", name: "Amazon", deliveryRule: "£3.99, free on orders of £39.00 or more" }));
  });

  it("keeps to one shop when the split's extra delivery costs more than it saves", async () => {
    // The toy is only at Pets at Home: everything there is £19.50 + £18.50 + £5.00 + £3.99 = £46.99;
    // kibble and treats at Amazon (£39.00, free) and the toy at Pets at Home (£5.00 + £3.99) is £47.99.
    const answer = await quoted([
      { productId: ids.kibble, quantity: 1 },
      { productId: ids.treats, quantity: 1 },
      { productId: ids.toy, quantity: 1 },
    ]);
    expect(shape(answer.cheapest, answer)).toEqual({
      total: 46.99,
      orders: [{ retailer: "Pets at Home", lines: ["1 × Basket Kibble", "1 × Basket Treats", "1 × Basket Toy"], delivery: 3.99, total: 46.99 }],
    });
    expect(answer.singleShop!.total).toBe(46.99);
    expect(answer.saving).toBe(0);
  });

  it("splits when that is cheaper, and says what the cheapest single shop would cost and the saving", async () => {
    // The bed at Amazon (£45.00, free over £39) and the toy at Pets at Home (£5.00 + £3.99): £53.99.
    // Only Pets at Home has both: £60.00 + £5.00 + £3.99 = £68.99. The split saves £15.00.
    const answer = await quoted([
      { productId: ids.bed, quantity: 1 },
      { productId: ids.toy, quantity: 1 },
    ]);
    expect(shape(answer.cheapest, answer)).toEqual({
      total: 53.99,
      orders: [
        { retailer: "Amazon", lines: ["1 × Basket Bed"], delivery: 0, total: 45 },
        { retailer: "Pets at Home", lines: ["1 × Basket Toy"], delivery: 3.99, total: 8.99 },
      ].sort((x, y) => (x.retailer === "Amazon" ? amazon : petsAtHome) - (y.retailer === "Amazon" ? amazon : petsAtHome)),
    });
    expect(shape(answer.singleShop, answer)).toEqual({
      total: 68.99,
      orders: [{ retailer: "Pets at Home", lines: ["1 × Basket Bed", "1 × Basket Toy"], delivery: 3.99, total: 68.99 }],
    });
    expect(answer.saving).toBe(15);
    // Pets at Home's order is below no threshold (it has none): nothing to spend for free delivery.
    expect(answer.cheapest!.orders.map((order) => order.toFreeDelivery)).toEqual([null, null]);
  });

  it("says how much more an order needs for free delivery", async () => {
    // Amazon alone for the kibble: £20.00, £19.00 short of £39.00 (Pets at Home: £19.50 + £3.99 = £23.49 vs £23.99).
    const answer = await quoted([{ productId: ids.kibble, quantity: 1 }]);
    expect(shape(answer.cheapest, answer)).toEqual({ total: 23.49, orders: [{ retailer: "Pets at Home", lines: ["1 × Basket Kibble"], delivery: 3.99, total: 23.49 }] });
    expect(answer.cheapest!.orders[0]!.toFreeDelivery).toBeNull();
    sql("UPDATE product_prices SET price_pence = 1900 WHERE product_id = ? AND retailer_id = ?", ids.kibble, amazon);
    try {
      const cheaper = await quoted([{ productId: ids.kibble, quantity: 1 }]);
      // Now Amazon: £19.00 + £3.99 = £22.99, £20.00 short of free delivery.
      expect(cheaper.cheapest!.orders[0]).toEqual(expect.objectContaining({ items: 19, delivery: 3.99, total: 22.99, toFreeDelivery: 20 }));
    } finally {
      sql("UPDATE product_prices SET price_pence = 2000 WHERE product_id = ? AND retailer_id = ?", ids.kibble, amazon);
    }
  });

  it("uses a repeat-delivery price only where the visitor asks for repeat and the retailer has one", async () => {
    const oneOff = await quoted([{ productId: ids.treats, quantity: 2 }]);
    // Two treats one-off: Amazon £38.00 + £3.99 = £41.99; Pets at Home £37.00 + £3.99 = £40.99.
    expect(shape(oneOff.cheapest, oneOff)).toEqual({ total: 40.99, orders: [{ retailer: "Pets at Home", lines: ["2 × Basket Treats"], delivery: 3.99, total: 40.99 }] });
    const repeat = await quoted([{ productId: ids.treats, quantity: 2, repeat: true }]);
    // On repeat at Pets at Home: 2 × £15.00 + £3.99 = £33.99.
    expect(repeat.cheapest!.total).toBe(33.99);
    expect(repeat.cheapest!.orders[0]!.lines[0]).toEqual(expect.objectContaining({ unitPrice: 15, linePrice: 30, repeat: true }));
    expect(repeat.products[0]).toEqual(expect.objectContaining({ id: ids.treats, quantity: 2, repeat: true }));
  });

  it("leaves out products nobody has in stock at a current price, and names products no longer listed", async () => {
    const answer = await quoted([
      { productId: ids.gone, quantity: 1 },
      { productId: ids.toy, quantity: 3 },
      { productId: 987_654, quantity: 1 },
      { productId: ids.stale, quantity: 1 },
    ]);
    expect(answer.unavailable).toEqual([ids.gone, ids.stale]);
    expect(answer.removed).toEqual([987_654]);
    expect(answer.products.map((product) => product.id)).toEqual([ids.gone, ids.toy, ids.stale]);
    // The toy alone: 3 × £5.00 + £3.99.
    expect(shape(answer.cheapest, answer)).toEqual({ total: 18.99, orders: [{ retailer: "Pets at Home", lines: ["3 × Basket Toy"], delivery: 3.99, total: 18.99 }] });
  });

  it("uses the price the site owner set by hand, and an offer marked delivered free", async () => {
    // The toy: £5.00 at Pets at Home, £3.99 delivery.
    expect((await quoted([{ productId: ids.toy, quantity: 1 }])).cheapest!.total).toBe(8.99);
    sql("UPDATE product_prices SET price_override = 1, manual_price_pence = 450 WHERE product_id = ?", ids.toy);
    try {
      const manual = await quoted([{ productId: ids.toy, quantity: 2 }]);
      // 2 × £4.50 + £3.99.
      expect(manual.cheapest!.orders[0]).toEqual(expect.objectContaining({ items: 9, delivery: 3.99, total: 12.99 }));
      expect(manual.cheapest!.orders[0]!.lines[0]).toEqual(expect.objectContaining({ unitPrice: 4.5, linePrice: 9 }));
      // Marked free: delivered free whatever the order.
      sql("UPDATE product_prices SET free_delivery = 1 WHERE product_id = ?", ids.toy);
      const free = await quoted([{ productId: ids.toy, quantity: 1 }]);
      expect(free.cheapest!.orders[0]).toEqual(expect.objectContaining({ items: 4.5, delivery: 0, total: 4.5, toFreeDelivery: null }));
    } finally {
      sql("UPDATE product_prices SET price_override = 0, manual_price_pence = NULL, free_delivery = 0 WHERE product_id = ?", ids.toy);
    }
  });

  it("prices a quantity with a retailer's multi-buy, as the admin typed it in any of the usual wordings", async () => {
    const pouches = await createProduct("Basket Pouches", [
      { retailerId: amazon, price: 6, multiBuy: "Buy 2 get 1 free" },
      { retailerId: petsAtHome, price: 5.5 },
    ]);
    // Stored and answered in the site's words.
    const product = await api.json<{ prices: { retailerId: number; multiBuy: string | null }[] }>(`/api/products/by-id/${pouches}`);
    expect(product.prices.map(({ retailerId, multiBuy }) => [retailerId, multiBuy]).sort()).toEqual(
      [
        [amazon, "3 for 2"],
        [petsAtHome, null],
      ].sort(),
    );
    // Two: Amazon £12.00 + £3.99 against Pets at Home £11.00 + £3.99.
    const two = await quoted([{ productId: pouches, quantity: 2 }]);
    expect(two.cheapest!.total).toBe(14.99);
    expect(two.cheapest!.orders[0]!.retailer.name).toBe("Pets at Home");
    // Three: Amazon's 3 for 2 is £12.00 + £3.99 = £15.99, against Pets at Home's £16.50 + £3.99.
    const three = await quoted([{ productId: pouches, quantity: 3 }]);
    expect(three.cheapest!.orders).toEqual([
      expect.objectContaining({
        retailer: expect.objectContaining({ name: "Amazon" }),
        lines: [expect.objectContaining({ quantity: 3, unitPrice: 6, linePrice: 12, multiBuySaving: 6 })],
        total: 15.99,
      }),
    ]);
    // A multi-buy the form cannot read is refused, and nothing is stored.
    const refused = await api.admin("PUT", `/api/products/${pouches}`, {
      name: "Basket Pouches",
      categoryId,
      retailerLinks: [{ retailerId: amazon, affiliateUrl: offerUrl(api.db, amazon, "basket-pouches"), price: 6, multiBuy: "half price" }],
    });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error: string }).error).toBe('retailerLinks.0.multiBuy: multiBuy must be a multi-buy like "3 for 2" or "2 for £20"');
    expect(api.db.$client.prepare("SELECT multi_buy FROM product_prices WHERE product_id = ? AND retailer_id = ?").get(pouches, amazon)).toEqual({ multi_buy: "3 for 2" });
  });

  it("answers a basket of nothing buyable with no plans", async () => {
    const answer = await quoted([{ productId: ids.gone, quantity: 1 }]);
    expect(answer).toEqual(expect.objectContaining({ cheapest: null, singleShop: null, saving: null, unavailable: [ids.gone], removed: [] }));
  });

  it("stores nothing and is not cached: a price changed between two quotes shows in the second", async () => {
    const count = () => (api.db.$client.prepare("SELECT (SELECT count(*) FROM user_behaviour) + (SELECT count(*) FROM audit_log) AS n").get() as { n: number }).n;
    const before = count();
    const first = await quoted([{ productId: ids.toy, quantity: 1 }]);
    expect(first.cheapest!.total).toBe(8.99);
    sql("UPDATE product_prices SET price_pence = 600 WHERE product_id = ?", ids.toy);
    const second = await quoted([{ productId: ids.toy, quantity: 1 }]);
    expect(second.cheapest!.total).toBe(9.99);
    sql("UPDATE product_prices SET price_pence = 500 WHERE product_id = ?", ids.toy);
    expect(count()).toBe(before);
  });

  it("refuses a quote past the per-client limit with 429 and Retry-After", async () => {
    const limited = await startTestServer({ products: 30, writeLimits: { quotes: { max: 2, windowMs: 60_000 } } });
    try {
      const productId = (limited.db.$client.prepare("SELECT id FROM products ORDER BY id LIMIT 1").get() as { id: number }).id;
      const lines = [{ productId, quantity: 1 }];
      expect((await quote(lines, limited)).status).toBe(200);
      expect((await quote(lines, limited)).status).toBe(200);
      const third = await quote(lines, limited);
      expect(third.status).toBe(429);
      expect(Number(third.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(((await third.json()) as { error: string }).error).toMatch(/Too many/);
    } finally {
      await limited.close();
    }
  });
});
