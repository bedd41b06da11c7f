import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ProductJson as Product } from "../../data/domain/catalogue-json.ts";
import { startTestServer, type TestServer } from "./server.ts";
import { offerUrl } from "../../data/db/fixtures/temp-db.ts";

let api: TestServer;
let amazonId: number;
let petsAtHomeId: number;
let categoryId: number;

beforeAll(async () => {
  api = await startTestServer({ products: 120 });
  const retailerId = (key: string) => (api.db.$client.prepare("SELECT id FROM retailers WHERE key = ?").get(key) as { id: number }).id;
  amazonId = retailerId("amazon");
  petsAtHomeId = retailerId("pets-at-home");
  categoryId = (api.db.$client.prepare("SELECT id FROM categories WHERE slug = 'dog-food'").get() as { id: number }).id;
  // The delivery rules the totals below are worked out with.
  const rule = (id: number) => api.db.$client.prepare("SELECT delivery_pence, free_delivery_from_pence FROM retailers WHERE id = ?").get(id);
  expect(rule(amazonId)).toEqual({ delivery_pence: 299, free_delivery_from_pence: 3500 });
  expect(rule(petsAtHomeId)).toEqual({ delivery_pence: 399, free_delivery_from_pence: 3900 });
});
afterAll(() => api.close());

type Link = Record<string, unknown>;

const link = (retailerId: number, price: number, extra: Link = {}): Link => ({
  retailerId,
  affiliateUrl: offerUrl(api.db, retailerId, "repeat-kibble"),
  price,
  originalPrice: null,
  inStock: true,
  priceOverride: false,
  manualPrice: null,
  freeDelivery: false,
  ...extra,
});

const body = (links: Link[], name = "Repeat Test Kibble 12kg") => ({ name, description: "", image: "", brand: "Test", categoryId, rating: 4, reviewCount: 1, retailerLinks: links });

interface StoredRepeat {
  retailer_id: number;
  price_pence: number;
  repeat_price_pence: number | null;
  repeat_terms: string | null;
}

const stored = (productId: number) =>
  api.db.$client
    .prepare("SELECT retailer_id, price_pence, repeat_price_pence, repeat_terms FROM product_prices WHERE product_id = ? ORDER BY retailer_id")
    .all(productId) as StoredRepeat[];

const lastAudit = () => api.db.$client.prepare("SELECT action, entity_id, summary FROM audit_log ORDER BY id DESC LIMIT 1").get() as { action: string; entity_id: number; summary: string };
const auditCount = () => (api.db.$client.prepare("SELECT count(*) AS n FROM audit_log").get() as { n: number }).n;

describe("repeat-delivery prices through the admin's product writes", () => {
  let productId: number;
  let slug: string;

  it("POST stores a repeat price and trimmed terms per offer; the read APIs carry repeatPrice, repeatTotal and repeatTerms", async () => {
    const response = await api.admin(
      "POST",
      "/api/products",
      body([
        // £20.00 + £2.99 delivery; repeat £19.00 + £2.99 = £21.99.
        link(amazonId, 20, { repeatPrice: 19, repeatTerms: "  Subscribe & Save: 5% off; cancel any time  " }),
        // £40.00 is delivered free; repeat £38.00 is below the £39 threshold: £38.00 + £3.99 = £41.99.
        link(petsAtHomeId, 40, { repeatPrice: "38.00" }),
      ]),
    );
    expect(response.status).toBe(201);
    ({ id: productId, slug } = (await response.json()) as { id: number; slug: string });
    expect(stored(productId)).toEqual([
      { retailer_id: amazonId, price_pence: 2000, repeat_price_pence: 1900, repeat_terms: "Subscribe & Save: 5% off; cancel any time" },
      { retailer_id: petsAtHomeId, price_pence: 4000, repeat_price_pence: 3800, repeat_terms: null },
    ].sort((a, b) => a.retailer_id - b.retailer_id));

    const product = await api.json<Product>(`/api/products/${slug}`);
    // The best price stays the lowest one-off total, never a repeat total.
    expect(product.bestPrice).toBe(22.99);
    expect(product.prices.map((offer) => [offer.retailerId, offer.total, offer.repeatPrice, offer.repeatTotal, offer.repeatTerms])).toEqual([
      [amazonId, 22.99, 19, 21.99, "Subscribe & Save: 5% off; cancel any time"],
      [petsAtHomeId, 40, 38, 41.99, null],
    ]);
    const byId = await api.json<Product>(`/api/products/by-id/${productId}`);
    expect(byId.prices).toEqual(product.prices);
    const links = await api.json<{ retailerId: number; repeatPrice: number | null; repeatTotal: number | null; repeatTerms: string | null }[]>(
      `/api/affiliate-links?productId=${productId}`,
    );
    expect(links.map((l) => [l.retailerId, l.repeatPrice, l.repeatTotal, l.repeatTerms])).toEqual(
      [
        [amazonId, 19, 21.99, "Subscribe & Save: 5% off; cancel any time"],
        [petsAtHomeId, 38, 41.99, null],
      ].sort((a, b) => (a[0] as number) - (b[0] as number)),
    );
    const admin = (await (await api.admin("GET", `/api/admin/products/${productId}`)).json()) as { retailerLinks: Link[] };
    expect(admin.retailerLinks.map((l) => [l.retailerId, l.repeatPrice, l.repeatTerms])).toEqual(
      [
        [amazonId, 19, "Subscribe & Save: 5% off; cancel any time"],
        [petsAtHomeId, 38, null],
      ].sort((a, b) => (a[0] as number) - (b[0] as number)),
    );
  });

  it("offers without a repeat price read as null", async () => {
    const other = await api.json<Product[]>("/api/products?limit=5");
    const plain = other.flatMap((p) => p.prices).find((offer) => offer.repeatPrice === null);
    expect(plain).toMatchObject({ repeatPrice: null, repeatTotal: null, repeatTerms: null });
  });

  it("PUT changes and removes repeat prices; the audit summary names the repeat price move", async () => {
    const edited = body([
      link(amazonId, 20, { repeatPrice: 18.5, repeatTerms: "Subscribe & Save: 5% off; cancel any time" }),
      link(petsAtHomeId, 40, { repeatPrice: null }),
    ]);
    const response = await api.admin("PUT", `/api/products/${productId}`, edited);
    expect(response.status).toBe(200);
    expect(stored(productId).map((row) => [row.retailer_id, row.repeat_price_pence, row.repeat_terms])).toEqual(
      [
        [amazonId, 1850, "Subscribe & Save: 5% off; cancel any time"],
        [petsAtHomeId, null, null],
      ].sort((a, b) => (a[0] as number) - (b[0] as number)),
    );
    const audit = lastAudit();
    expect(audit).toMatchObject({ action: "update", entity_id: productId });
    expect(audit.summary).toContain("repeat price at Amazon £19.00 -> £18.50");
    expect(audit.summary).toContain("repeat price at Pets at Home £38.00 -> none");
    // The one-off prices did not move: no price history point for this save.
    const history = api.db.$client.prepare("SELECT count(*) AS n FROM price_history WHERE product_id = ?").get(productId) as { n: number };
    expect(history.n).toBe(2);
    const product = await api.json<Product>(`/api/products/${slug}`);
    expect(product.prices.find((offer) => offer.retailerId === amazonId)).toMatchObject({ repeatPrice: 18.5, repeatTotal: 21.49 });
    expect(product.prices.find((offer) => offer.retailerId === petsAtHomeId)).toMatchObject({ repeatPrice: null, repeatTotal: null, repeatTerms: null });

    // Terms alone change: an audit entry naming the offer.
    const before = auditCount();
    const termsOnly = body([link(amazonId, 20, { repeatPrice: 18.5, repeatTerms: "5% off" }), link(petsAtHomeId, 40)]);
    expect((await api.admin("PUT", `/api/products/${productId}`, termsOnly)).status).toBe(200);
    expect(auditCount()).toBe(before + 1);
    expect(lastAudit().summary).toContain("offer at Amazon");
    expect(stored(productId).find((row) => row.retailer_id === amazonId)?.repeat_terms).toBe("5% off");
    // Saving the same again changes nothing.
    expect((await api.admin("PUT", `/api/products/${productId}`, termsOnly)).status).toBe(200);
    expect(auditCount()).toBe(before + 1);
  });

  it("allows a repeat price equal to the one-off price the shopper pays (the manual price under an override)", async () => {
    const equal = body([link(amazonId, 25, { priceOverride: true, manualPrice: 20, repeatPrice: 20 }), link(petsAtHomeId, 40)]);
    expect((await api.admin("PUT", `/api/products/${productId}`, equal)).status).toBe(200);
    expect(stored(productId).find((row) => row.retailer_id === amazonId)?.repeat_price_pence).toBe(2000);
  });

  describe("bad input is refused with a 400 naming the field, and changes nothing", () => {
    const cases: [string, Link, string][] = [
      ["a negative repeat price", { repeatPrice: -1 }, "retailerLinks.0.repeatPrice"],
      ["a repeat price with three decimals", { repeatPrice: 19.999 }, "retailerLinks.0.repeatPrice"],
      ["a repeat price that is not an amount", { repeatPrice: "cheap" }, "retailerLinks.0.repeatPrice"],
      ["a repeat price above the one-off price", { repeatPrice: 20.01 }, "above the one-off price (£20.00)"],
      ["a repeat price above the manual price under an override", { price: 30, priceOverride: true, manualPrice: 20, repeatPrice: 20.01 }, "above the one-off price (£20.00)"],
      ["terms without a repeat price", { repeatTerms: "5% off" }, "repeatTerms needs a repeatPrice"],
      ["terms longer than 200 characters", { repeatPrice: 19, repeatTerms: "x".repeat(201) }, "repeatTerms must be at most 200 characters"],
      ["terms that are not text", { repeatPrice: 19, repeatTerms: 5 }, "repeatTerms must be text"],
    ];
    for (const [what, extra, message] of cases) {
      it(what, async () => {
        const rows = stored(productId);
        const audits = auditCount();
        const response = await api.admin("PUT", `/api/products/${productId}`, body([link(amazonId, 20, extra), link(petsAtHomeId, 40)]));
        expect(response.status).toBe(400);
        expect(((await response.json()) as { error: string }).error).toContain(message);
        expect(stored(productId)).toEqual(rows);
        expect(auditCount()).toBe(audits);
      });
    }

    it("blank terms are none: accepted without a price, and stored as null with one", async () => {
      const blankWithout = await api.admin("PUT", `/api/products/${productId}`, body([link(amazonId, 20, { repeatTerms: "   " }), link(petsAtHomeId, 40)]));
      expect(blankWithout.status).toBe(200);
      expect(stored(productId).find((row) => row.retailer_id === amazonId)).toMatchObject({ repeat_price_pence: null, repeat_terms: null });
      const blankWith = await api.admin("PUT", `/api/products/${productId}`, body([link(amazonId, 20, { repeatPrice: 19, repeatTerms: "" }), link(petsAtHomeId, 40)]));
      expect(blankWith.status).toBe(200);
      expect(stored(productId).find((row) => row.retailer_id === amazonId)).toMatchObject({ repeat_price_pence: 1900, repeat_terms: null });
    });

    it("terms of exactly 200 characters (after trimming) are accepted", async () => {
      const terms = "y".repeat(200);
      const response = await api.admin("PUT", `/api/products/${productId}`, body([link(amazonId, 20, { repeatPrice: 19, repeatTerms: ` ${terms} ` }), link(petsAtHomeId, 40)]));
      expect(response.status).toBe(200);
      expect(stored(productId).find((row) => row.retailer_id === amazonId)?.repeat_terms).toBe(terms);
    });

    it("a new product with bad repeat input is not created", async () => {
      const count = (api.db.$client.prepare("SELECT count(*) AS n FROM products").get() as { n: number }).n;
      const response = await api.admin("POST", "/api/products", body([link(amazonId, 20, { repeatPrice: 21 })], "Refused Repeat Kibble"));
      expect(response.status).toBe(400);
      expect((api.db.$client.prepare("SELECT count(*) AS n FROM products").get() as { n: number }).n).toBe(count);
    });
  });
});
