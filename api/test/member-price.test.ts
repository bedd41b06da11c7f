/**
 * Member (loyalty) prices through the admin's product writes and the read APIs, over a real server
 * and SQLite file: stored with their scheme, answered beside the standard price with a member's
 * total to the door, never the best price; refused without a scheme, without a price, or at or
 * above the one-off price, storing nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ProductJson as Product } from "../../data/domain/catalogue-json.ts";
import { offerUrl } from "../../data/db/fixtures/temp-db.ts";
import { startTestServer, type TestServer } from "./server.ts";

let api: TestServer;
let amazon: number;
let petsAtHome: number;
let categoryId: number;

beforeAll(async () => {
  api = await startTestServer({ products: 30 });
  const retailerId = (key: string) => (api.db.$client.prepare("SELECT id FROM retailers WHERE key = ?").get(key) as { id: number }).id;
  amazon = retailerId("amazon");
  petsAtHome = retailerId("pets-at-home");
  categoryId = (api.db.$client.prepare("SELECT id FROM categories WHERE slug = 'dog-food'").get() as { id: number }).id;
  // Amazon: £2.99, free from £35; Pets at Home: £3.99, free from £39.
  api.db.$client.prepare("UPDATE retailers SET delivery_pence = 299, free_delivery_from_pence = 3500 WHERE id = ?").run(amazon);
  api.db.$client.prepare("UPDATE retailers SET delivery_pence = 399, free_delivery_from_pence = 3900 WHERE id = ?").run(petsAtHome);
});
afterAll(() => api.close());

const link = (retailerId: number, price: number, extra: Record<string, unknown> = {}) => ({
  retailerId,
  affiliateUrl: offerUrl(api.db, retailerId, "member-kibble"),
  price,
  originalPrice: null,
  inStock: true,
  priceOverride: false,
  manualPrice: null,
  freeDelivery: false,
  ...extra,
});
const body = (links: unknown[]) => ({ name: "Member Test Kibble 12kg", description: "", image: "", brand: "Test", categoryId, rating: 4, reviewCount: 1, retailerLinks: links });
const stored = (productId: number) =>
  api.db.$client.prepare("SELECT retailer_id, member_price_pence, member_scheme FROM product_prices WHERE product_id = ? ORDER BY retailer_id").all(productId);

describe("member prices", () => {
  let productId: number;
  let slug: string;

  it("are stored with their scheme and answered beside the standard price, a member's total to the door with them; the best price stays what anyone pays", async () => {
    const response = await api.admin(
      "POST",
      "/api/products",
      body([
        link(amazon, 40),
        // £40.00 is delivered free; the Pets Club price £36.00 is under the £39 threshold: £36.00 + £3.99 = £39.99.
        link(petsAtHome, 40, { memberPrice: 36, memberScheme: " Pets Club " }),
      ]),
    );
    expect(response.status, await response.clone().text()).toBe(201);
    ({ id: productId, slug } = (await response.json()) as { id: number; slug: string });
    expect(stored(productId)).toEqual(
      [
        { retailer_id: amazon, member_price_pence: null, member_scheme: null },
        { retailer_id: petsAtHome, member_price_pence: 3600, member_scheme: "Pets Club" },
      ].sort((a, b) => a.retailer_id - b.retailer_id),
    );
    const product = await api.json<Product>(`/api/products/${slug}`);
    const offer = (retailerId: number) => product.prices.find((candidate) => candidate.retailerId === retailerId)!;
    expect([offer(petsAtHome).total, offer(petsAtHome).memberPrice, offer(petsAtHome).memberScheme, offer(petsAtHome).memberTotal]).toEqual([40, 36, "Pets Club", 39.99]);
    expect([offer(amazon).memberPrice, offer(amazon).memberScheme, offer(amazon).memberTotal]).toEqual([null, null, null]);
    // Both are £40.00 to the door for anyone: the tie goes to the lower retailer id, whatever the member price.
    expect(product.bestPrice).toBe(40);
    expect(product.bestRetailer?.name).toBe(amazon < petsAtHome ? "Amazon" : "Pets at Home");
    // The admin form loads them back.
    const admin = (await (await api.admin("GET", `/api/admin/products/${productId}`)).json()) as { retailerLinks: { retailerId: number; memberPrice: number | null; memberScheme: string | null }[] };
    expect(admin.retailerLinks.find((candidate) => candidate.retailerId === petsAtHome)).toMatchObject({ memberPrice: 36, memberScheme: "Pets Club" });
  });

  it.each([
    [{ memberPrice: 36 }, "retailerLinks.0.memberScheme: memberScheme is required with a memberPrice (the scheme members join, e.g. Pets Club)"],
    [{ memberScheme: "Pets Club" }, "retailerLinks.0.memberScheme: memberScheme needs a memberPrice"],
    [{ memberPrice: 40, memberScheme: "Pets Club" }, "retailerLinks.0.memberPrice: memberPrice must be below the one-off price (£40.00)"],
    [{ memberPrice: 39, memberScheme: "Pets Club", priceOverride: true, manualPrice: 38 }, "retailerLinks.0.memberPrice: memberPrice must be below the one-off price (£38.00)"],
    [{ memberPrice: 30, memberScheme: "P".repeat(41) }, "retailerLinks.0.memberScheme: memberScheme must be at most 40 characters"],
  ])("refuses %j and stores nothing", async (extra, error) => {
    const before = stored(productId);
    const response = await api.admin("PUT", `/api/products/${productId}`, body([link(petsAtHome, 40, extra)]));
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: string }).error).toBe(error);
    expect(stored(productId)).toEqual(before);
  });

  it("keeps a member price under an override only below the manual price, and reads a price one penny below as a member price", async () => {
    const response = await api.admin("PUT", `/api/products/${productId}`, body([link(petsAtHome, 40, { priceOverride: true, manualPrice: 38, memberPrice: 37.99, memberScheme: "Pets Club" })]));
    expect(response.status, await response.clone().text()).toBe(200);
    const product = await api.json<Product>(`/api/products/${slug}`);
    expect(product.prices.map((offer) => [offer.price, offer.memberPrice, offer.memberTotal])).toEqual([[38, 37.99, 41.98]]);
  });
});
