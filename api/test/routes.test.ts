/**
 * Every route in the route table, through the real server on a port over a real SQLite file:
 * one request with good input whose answer is checked against the database (and, for writes,
 * where the write landed), and requests with bad input that must answer a 4xx `{ "error" }`
 * saying what is wrong while the database stays exactly as it was. A route added to the table
 * without both fails the first test.
 */
import crypto from "node:crypto";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { routes } from "../app.ts";
import { signToken } from "../lib/tokens.ts";
import { startTestServer, type TestServer } from "./server.ts";

let api: TestServer;
const alice = "user_aliceroutesaaaaaaaaaaaa";
const bob = "user_bobroutesbbbbbbbbbbbbbb";

interface Fixture {
  product: { id: number; slug: string; name: string; category_id: number };
  category: { id: number; name: string; slug: string; icon: string };
  retailer: { id: number; key: string; name: string; logo: string; website: string; comparesPrices: boolean };
  voucherId: number;
  favoriteId: number;
  alertId: number;
  subscriberId: number;
}
let f: Fixture;

beforeAll(async () => {
  api = await startTestServer({ products: 40 });
  process.env.SECRETS_DIR = path.join(api.dir, "secrets");
  const sqlite = api.db.$client;
  const product = sqlite.prepare("SELECT id, slug, name, category_id FROM products WHERE best_price_pence IS NOT NULL ORDER BY rank LIMIT 1").get() as Fixture["product"];
  // Every visitor table holds rows of two visitors, so a read or write that ignores the owner shows.
  const favorite = (userId: string, productId: number) =>
    (sqlite.prepare("INSERT INTO favorites (user_id, product_id, notes) VALUES (?, ?, 'a note') RETURNING id").get(userId, productId) as { id: number }).id;
  const alert = (userId: string, productId: number) =>
    (sqlite.prepare("INSERT INTO price_alerts (user_id, product_id, email, target_price_pence) VALUES (?, ?, 'owner@example.com', 100) RETURNING id").get(userId, productId) as { id: number }).id;
  const favoriteId = favorite(alice, product.id);
  favorite(bob, product.id);
  const alertId = alert(alice, product.id);
  alert(bob, product.id);
  for (const userId of [alice, bob]) sqlite.prepare("INSERT INTO recently_viewed (user_id, product_id) VALUES (?, ?)").run(userId, product.id);
  const subscriberId = (sqlite.prepare("INSERT INTO email_subscribers (email) VALUES ('reader@example.com') RETURNING id").get() as { id: number }).id;
  sqlite.prepare("INSERT INTO email_subscribers (email) VALUES ('other@example.com')").run();
  f = {
    product,
    category: sqlite.prepare("SELECT id, name, slug, icon FROM categories WHERE id = ?").get(product.category_id) as Fixture["category"],
    retailer: {
      ...(sqlite.prepare("SELECT id, key, name, logo, website FROM retailers ORDER BY id LIMIT 1").get() as Omit<Fixture["retailer"], "comparesPrices">),
      comparesPrices: true,
    },
    voucherId: (sqlite.prepare("SELECT id FROM vouchers ORDER BY id LIMIT 1").get() as { id: number }).id,
    favoriteId,
    alertId,
    subscriberId,
  };
});

afterAll(async () => {
  await api.close();
  delete process.env.SECRETS_DIR;
});

const rows = <T>(sql: string, ...params: unknown[]) => api.db.$client.prepare(sql).all(...params) as T[];
const row = <T>(sql: string, ...params: unknown[]) => api.db.$client.prepare(sql).get(...params) as T;

/** A digest of every row of every table: equal digests, unchanged database. */
function databaseDigest(): string {
  const hash = crypto.createHash("sha256");
  for (const { name } of rows<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")) {
    hash.update(name);
    hash.update(JSON.stringify(api.db.$client.prepare(`SELECT * FROM "${name}"`).raw().all()));
  }
  return hash.digest("hex");
}

function request(method: string, pathAndQuery: string, body?: unknown, contentType = "application/json"): Promise<Response> {
  const init: RequestInit = { method };
  if (body !== undefined) {
    const text = typeof body === "string" ? body : JSON.stringify(body);
    // An empty content type sends the body with none (as bytes: fetch labels a string text/plain).
    init.body = contentType ? text : new TextEncoder().encode(text);
    init.headers = contentType ? { "content-type": contentType } : {};
  }
  return fetch(api.baseUrl + pathAndQuery, init);
}

interface BadCase {
  method?: string;
  path: string;
  body?: unknown;
  contentType?: string;
  status: number;
  /** The exact message, or a part of it given as a RegExp. */
  error: string | RegExp;
}

const oneClick = "List-Unsubscribe=One-Click";
const form = "application/x-www-form-urlencoded";
const anyId = 999_999;

/** Bad input for each route, keyed "METHOD /path" as in the route table. */
const badInput: Record<string, () => BadCase[]> = {
  "GET /api/health": () => [{ method: "DELETE", path: "/api/health", status: 405, error: "DELETE is not allowed here; use GET or HEAD" }],
  "GET /api/products": () => [
    { path: "/api/products?sort=cheapest", status: 400, error: "sort must be one of rank_asc, price_asc, price_desc, rating_desc, savings_desc" },
    { path: "/api/products?limit=101", status: 400, error: "limit must be between 1 and 100" },
    { path: "/api/products?minPrice=50&maxPrice=10", status: 400, error: "minPrice must not be above maxPrice" },
    { method: "POST", path: "/api/products", body: { name: "x" }, status: 405, error: "POST is not allowed here; use GET or HEAD" },
  ],
  "GET /api/products/count": () => [{ path: "/api/products/count?maxPrice=1.999", status: 400, error: "maxPrice must be an amount in pounds, like 12.99" }],
  "GET /api/products/featured": () => [{ path: "/api/products/featured?limit=0", status: 400, error: "limit must be between 1 and 100" }],
  "GET /api/products/by-id/:id": () => [
    { path: "/api/products/by-id/abc", status: 400, error: "id must be a whole number" },
    { path: `/api/products/by-id/${anyId}`, status: 404, error: "Product not found" },
  ],
  "GET /api/products/:slug": () => [
    { path: "/api/products/Not_A_Slug", status: 400, error: "slug must be a slug (a-z, 0-9 and hyphens)" },
    { path: "/api/products/no-such-product", status: 404, error: "Product not found" },
    { method: "DELETE", path: `/api/products/${f.product.slug}`, status: 405, error: "DELETE is not allowed here; use GET or HEAD" },
  ],
  "GET /api/search": () => [
    { path: `/api/search?q=${"a".repeat(201)}`, status: 400, error: "q must be at most 200 characters" },
    { path: "/api/search?q=a&q=b", status: 400, error: "q must be given once" },
  ],
  "GET /api/categories": () => [{ method: "POST", path: "/api/categories", body: { name: "New" }, status: 405, error: "POST is not allowed here; use GET or HEAD" }],
  "GET /api/categories/slug/:slug": () => [
    { path: "/api/categories/slug/Dog%20Food", status: 400, error: "slug must be a slug (a-z, 0-9 and hyphens)" },
    { path: "/api/categories/slug/no-such-category", status: 404, error: "Category not found" },
  ],
  "GET /api/categories/:id": () => [
    { path: "/api/categories/0", status: 400, error: `id must be between 1 and ${Number.MAX_SAFE_INTEGER}` },
    { path: `/api/categories/${anyId}`, status: 404, error: "Category not found" },
  ],
  "GET /api/retailers": () => [{ method: "PUT", path: "/api/retailers", body: [], status: 405, error: "PUT is not allowed here; use GET or HEAD" }],
  "GET /api/retailers/:id": () => [
    { path: "/api/retailers/1.5", status: 400, error: "id must be a whole number" },
    { path: `/api/retailers/${anyId}`, status: 404, error: "Retailer not found" },
  ],
  "GET /api/brands": () => [{ method: "DELETE", path: "/api/brands", status: 405, error: "DELETE is not allowed here; use GET or HEAD" }],
  "GET /api/vouchers": () => [
    { path: "/api/vouchers?status=expired", status: 400, error: "status must be all or active" },
    { path: "/api/vouchers?sort=newest", status: 400, error: "sort must be expiry or popular" },
  ],
  "POST /api/vouchers/:id/uses": () => [
    { method: "POST", path: "/api/vouchers/abc/uses", status: 400, error: "id must be a whole number" },
    { method: "POST", path: `/api/vouchers/${anyId}/uses`, status: 404, error: "Voucher not found" },
    { method: "GET", path: `/api/vouchers/${f.voucherId}/uses`, status: 405, error: "GET is not allowed here; use POST" },
  ],
  "GET /api/affiliate-links": () => [
    { path: "/api/affiliate-links", status: 400, error: "productId is required" },
    { path: "/api/affiliate-links?productId=-1", status: 400, error: "productId must be a whole number" },
    { path: `/api/affiliate-links?productId=${anyId}`, status: 404, error: "Product not found" },
  ],
  "GET /api/placeholder/:width/:height": () => [
    { path: "/api/placeholder/wide/100", status: 400, error: "width must be a whole number of pixels" },
    { path: `/api/placeholder/100/100?text=${"t".repeat(61)}`, status: 400, error: "text must be at most 60 characters" },
  ],
  "POST /api/subscribers": () => [
    { method: "POST", path: "/api/subscribers", body: { email: "not-an-email" }, status: 400, error: "email: Please enter a valid email address" },
    { method: "POST", path: "/api/subscribers", body: {}, status: 400, error: "email is required" },
    { method: "POST", path: "/api/subscribers", body: "email=a@b.co", contentType: form, status: 415, error: "Send a JSON body (Content-Type: application/json)" },
    { method: "POST", path: "/api/subscribers", body: "{", status: 400, error: "Request body is not valid JSON" },
    { method: "POST", path: "/api/subscribers", body: '{"email":"a@b.co"}', contentType: "", status: 415, error: "Send a JSON body (Content-Type: application/json)" },
  ],
  "POST /api/clicks": () => [
    { method: "POST", path: "/api/clicks", body: { userId: alice, events: [] }, status: 400, error: "events must not be empty" },
    {
      method: "POST",
      path: "/api/clicks",
      body: { userId: alice, events: [{ retailer: "Amazon", productName: "x", productId: anyId, price: 1, timestamp: new Date().toISOString() }] },
      status: 400,
      error: "productId: unknown product",
    },
    { method: "POST", path: "/api/clicks", body: { events: [] }, status: 400, error: "userId is required" },
    {
      method: "POST",
      path: "/api/clicks",
      body: { userId: alice, events: [{ retailer: "Amazon", productName: "x", price: -1, timestamp: new Date().toISOString() }] },
      status: 400,
      error: "events.0.price: Too small: expected number to be >=0",
    },
  ],
  "GET /api/recently-viewed": () => [
    { path: "/api/recently-viewed", status: 400, error: "userId is required" },
    { path: "/api/recently-viewed?userId=admin", status: 400, error: /^userId must be an anonymous visitor id/ },
  ],
  "POST /api/recently-viewed": () => [
    { method: "POST", path: "/api/recently-viewed", body: { userId: alice, productId: 0 }, status: 400, error: "productId must be a product id" },
    { method: "POST", path: "/api/recently-viewed", body: { userId: alice, productId: anyId }, status: 400, error: "productId: unknown product" },
  ],
  "GET /api/favorites": () => [{ path: "/api/favorites?userId=", status: 400, error: /^userId must be an anonymous visitor id/ }],
  "POST /api/favorites": () => [
    { method: "POST", path: "/api/favorites", body: { userId: alice, productId: "1" }, status: 400, error: "productId must be a product id" },
    { method: "POST", path: "/api/favorites", body: { userId: alice, productId: f.product.id, notes: "n".repeat(501) }, status: 400, error: "notes must be at most 500 characters" },
  ],
  "DELETE /api/favorites/:id": () => [
    { method: "DELETE", path: `/api/favorites/${f.favoriteId}`, status: 400, error: "userId is required" },
    { method: "DELETE", path: `/api/favorites/${f.favoriteId}?userId=${bob}`, status: 404, error: "Favorite not found" },
  ],
  "PATCH /api/favorites/:id": () => [
    { method: "PATCH", path: `/api/favorites/${f.favoriteId}?userId=${alice}`, body: { notes: 5 }, status: 400, error: "notes must be text" },
    { method: "PATCH", path: `/api/favorites/${f.favoriteId}?userId=${bob}`, body: { notes: "mine" }, status: 404, error: "Favorite not found" },
  ],
  "GET /api/is-favorite": () => [
    { path: `/api/is-favorite?userId=${alice}`, status: 400, error: "productId is required" },
    { path: `/api/is-favorite?productId=${f.product.id}`, status: 400, error: "userId is required" },
  ],
  "GET /api/price-alerts": () => [{ path: "/api/price-alerts", status: 400, error: "userId is required" }],
  "POST /api/price-alerts": () => [
    {
      method: "POST",
      path: "/api/price-alerts",
      body: { userId: alice, productId: f.product.id, email: "owner@example.com", targetPrice: 9.999 },
      status: 400,
      error: "targetPrice: Please enter a valid price",
    },
    { method: "POST", path: "/api/price-alerts", body: { userId: alice, productId: f.product.id, email: "x", targetPrice: 5 }, status: 400, error: "email: Please enter a valid email address" },
  ],
  "DELETE /api/price-alerts/:id": () => [
    { method: "DELETE", path: `/api/price-alerts/${f.alertId}`, status: 400, error: "userId is required" },
    { method: "DELETE", path: `/api/price-alerts/${f.alertId}?userId=${bob}`, status: 404, error: "Price alert not found" },
  ],
  "GET /api/alerts/unsubscribe": () => [
    { path: "/api/alerts/unsubscribe", status: 400, error: "Invalid unsubscribe link" },
    { path: `/api/alerts/unsubscribe?token=${signToken("newsletter-unsubscribe", f.alertId)}`, status: 400, error: "Invalid unsubscribe link" },
    { path: `/api/alerts/unsubscribe?token=${signToken("alert-unsubscribe", anyId)}`, status: 404, error: "This price alert no longer exists" },
  ],
  "POST /api/alerts/unsubscribe": () => [
    { method: "POST", path: "/api/alerts/unsubscribe?token=x", body: oneClick, contentType: form, status: 400, error: "Invalid unsubscribe link" },
    {
      method: "POST",
      path: `/api/alerts/unsubscribe?token=${signToken("newsletter-unsubscribe", f.alertId)}`,
      body: oneClick,
      contentType: form,
      status: 400,
      error: "Invalid unsubscribe link",
    },
  ],
  "GET /api/subscribers/unsubscribe": () => [
    { path: `/api/subscribers/unsubscribe?token=${signToken("alert-unsubscribe", f.subscriberId)}`, status: 400, error: "Invalid unsubscribe link" },
    { path: `/api/subscribers/unsubscribe?token=${signToken("newsletter-unsubscribe", anyId)}`, status: 404, error: "This newsletter subscription no longer exists" },
  ],
  "POST /api/subscribers/unsubscribe": () => [
    {
      method: "POST",
      path: `/api/subscribers/unsubscribe?token=${signToken("alert-unsubscribe", f.subscriberId)}`,
      body: oneClick,
      contentType: form,
      status: 400,
      error: "Invalid unsubscribe link",
    },
    {
      method: "POST",
      path: `/api/subscribers/unsubscribe?token=${signToken("newsletter-unsubscribe", anyId)}`,
      body: oneClick,
      contentType: form,
      status: 404,
      error: "This newsletter subscription no longer exists",
    },
  ],
};

/** A good request to each route and what its answer and its effect must be, checked against the database. */
const goodInput: Record<string, () => Promise<void>> = {
  "GET /api/health": async () => {
    const body = await ok("GET", "/api/health");
    expect(body).toMatchObject({ status: "ok", database: "ok", products: 40 });
  },
  "GET /api/products": async () => {
    const body = (await ok("GET", "/api/products?sort=price_asc&limit=5")) as { id: number }[];
    const expected = rows<{ id: number }>("SELECT id FROM products ORDER BY coalesce(best_price_pence, 9e15), rank, id LIMIT 5");
    expect(body.map((p) => p.id)).toEqual(expected.map((r) => r.id));
  },
  "GET /api/products/count": async () => {
    const body = await ok("GET", `/api/products/count?category=${f.category.slug}`);
    expect(body).toEqual({ count: row<{ n: number }>("SELECT count(*) AS n FROM products WHERE category_id = ?", f.category.id).n });
  },
  "GET /api/products/featured": async () => {
    const body = (await ok("GET", "/api/products/featured?limit=3")) as { id: number }[];
    expect(body.map((p) => p.id)).toEqual(rows<{ id: number }>("SELECT id FROM products WHERE is_featured = 1 ORDER BY rank, id LIMIT 3").map((r) => r.id));
  },
  "GET /api/products/by-id/:id": async () => {
    expect(await ok("GET", `/api/products/by-id/${f.product.id}`)).toMatchObject({ id: f.product.id, slug: f.product.slug, name: f.product.name });
  },
  "GET /api/products/:slug": async () => {
    expect(await ok("GET", `/api/products/${f.product.slug}`)).toMatchObject({ id: f.product.id, name: f.product.name, category: { slug: f.category.slug } });
  },
  "GET /api/search": async () => {
    const word = f.product.name.split(" ")[0]!.toLowerCase().replace(/[^a-z]/g, "");
    const body = (await ok("GET", `/api/search?q=${word}`)) as { products: { id: number }[]; total: number };
    expect(body.total).toBe(row<{ n: number }>("SELECT count(*) AS n FROM product_search WHERE product_search MATCH ?", `"${word}"*`).n);
    expect(body.products.map((p) => p.id)).toContain(f.product.id);
  },
  "GET /api/categories": async () => {
    expect(await ok("GET", "/api/categories")).toEqual(rows("SELECT id, name, slug, icon FROM categories ORDER BY name COLLATE NOCASE, id"));
  },
  "GET /api/categories/slug/:slug": async () => {
    expect(await ok("GET", `/api/categories/slug/${f.category.slug}`)).toEqual(f.category);
  },
  "GET /api/categories/:id": async () => {
    expect(await ok("GET", `/api/categories/${f.category.id}`)).toEqual(f.category);
  },
  "GET /api/retailers": async () => {
    const expected = rows<{ compares_prices: number }>(
      "SELECT id, key, name, logo, website, compares_prices FROM retailers ORDER BY name COLLATE NOCASE, id",
    ).map(({ compares_prices, ...retailer }) => ({ ...retailer, comparesPrices: compares_prices === 1 }));
    expect(expected.some((retailer) => !retailer.comparesPrices)).toBe(true);
    expect(await ok("GET", "/api/retailers")).toEqual(expected);
  },
  "GET /api/retailers/:id": async () => {
    expect(await ok("GET", `/api/retailers/${f.retailer.id}`)).toEqual(f.retailer);
  },
  "GET /api/brands": async () => {
    const expected = rows<{ brand: string }>("SELECT DISTINCT brand FROM products WHERE brand IS NOT NULL AND brand <> '' ORDER BY brand COLLATE NOCASE");
    expect(await ok("GET", "/api/brands")).toEqual(expected.map((r) => r.brand));
  },
  "GET /api/vouchers": async () => {
    const response = await request("GET", "/api/vouchers?sort=popular&limit=3");
    expect(response.status).toBe(200);
    expect(response.headers.get("x-total-count")).toBe(String(row<{ n: number }>("SELECT count(*) AS n FROM vouchers").n));
    const expected = rows<{ id: number }>("SELECT id FROM vouchers ORDER BY uses DESC, expiry_date, id LIMIT 3");
    expect(((await response.json()) as { id: number }[]).map((v) => v.id)).toEqual(expected.map((r) => r.id));
  },
  "POST /api/vouchers/:id/uses": async () => {
    const uses = () => rows<{ id: number; uses: number }>("SELECT id, uses FROM vouchers ORDER BY id");
    const before = uses();
    await ok("POST", `/api/vouchers/${f.voucherId}/uses`, undefined, 204);
    expect(uses()).toEqual(before.map((v) => (v.id === f.voucherId ? { ...v, uses: v.uses + 1 } : v)));
  },
  "GET /api/affiliate-links": async () => {
    const body = (await ok("GET", `/api/affiliate-links?productId=${f.product.id}`)) as { retailerId: number; url: string }[];
    const expected = rows<{ retailer_id: number; url: string }>("SELECT retailer_id, url FROM product_prices WHERE product_id = ? ORDER BY retailer_id", f.product.id);
    expect(body.map((l) => [l.retailerId, l.url])).toEqual(expected.map((r) => [r.retailer_id, r.url]));
  },
  "GET /api/placeholder/:width/:height": async () => {
    const response = await request("GET", "/api/placeholder/320/240?text=Kong");
    expect(response.status).toBe(200);
    const svg = await response.text();
    expect(svg).toContain('width="320" height="240"');
    expect(svg).toContain(">Kong<");
  },
  "POST /api/subscribers": async () => {
    expect(await ok("POST", "/api/subscribers", { email: "New.Reader@Example.com", source: "footer" }, 201)).toEqual({ subscribed: true });
    expect(rows("SELECT email, source, is_active FROM email_subscribers WHERE email LIKE 'new.reader%'")).toEqual([
      { email: "new.reader@example.com", source: "footer", is_active: 1 },
    ]);
  },
  "POST /api/clicks": async () => {
    const timestamp = "2026-11-22T10:00:00.000Z";
    await ok("POST", "/api/clicks", { userId: alice, events: [{ retailer: f.retailer.name, productName: f.product.name, productId: f.product.id, price: 9.99, timestamp }] }, 204);
    expect(rows("SELECT user_id, product_id, retailer_id, category_id, timestamp FROM user_behaviour WHERE action = 'affiliate_click'")).toEqual([
      { user_id: alice, product_id: f.product.id, retailer_id: f.retailer.id, category_id: f.category.id, timestamp },
    ]);
  },
  "GET /api/recently-viewed": async () => {
    const body = (await ok("GET", `/api/recently-viewed?userId=${alice}`)) as { id: number }[];
    expect(body.map((item) => item.id)).toEqual(rows<{ product_id: number }>("SELECT product_id FROM recently_viewed WHERE user_id = ? ORDER BY id DESC", alice).map((r) => r.product_id));
  },
  "POST /api/recently-viewed": async () => {
    const other = row<{ id: number }>("SELECT id FROM products WHERE id <> ? ORDER BY id LIMIT 1", f.product.id).id;
    await ok("POST", "/api/recently-viewed", { userId: bob, productId: other }, 204);
    expect(rows<{ product_id: number }>("SELECT product_id FROM recently_viewed WHERE user_id = ? ORDER BY id DESC", bob).map((r) => r.product_id)).toEqual([other, f.product.id]);
    expect(rows("SELECT product_id FROM recently_viewed WHERE user_id = ?", alice)).toHaveLength(1);
  },
  "GET /api/favorites": async () => {
    const body = (await ok("GET", `/api/favorites?userId=${alice}`)) as { id: number; userId: string }[];
    expect(body.map((fav) => [fav.id, fav.userId])).toEqual(rows<{ id: number; user_id: string }>("SELECT id, user_id FROM favorites WHERE user_id = ? ORDER BY id DESC", alice).map((r) => [r.id, r.user_id]));
  },
  "POST /api/favorites": async () => {
    const other = row<{ id: number }>("SELECT id FROM products WHERE id <> ? ORDER BY id DESC LIMIT 1", f.product.id).id;
    const body = (await ok("POST", "/api/favorites", { userId: bob, productId: other, notes: " for Rex " }, 201)) as { id: number };
    expect(row("SELECT user_id, product_id, notes FROM favorites WHERE id = ?", body.id)).toEqual({ user_id: bob, product_id: other, notes: "for Rex" });
  },
  "DELETE /api/favorites/:id": async () => {
    const id = row<{ id: number }>("INSERT INTO favorites (user_id, product_id) VALUES (?, (SELECT max(id) FROM products)) RETURNING id", alice).id;
    const others = rows("SELECT id FROM favorites WHERE id <> ?", id);
    await ok("DELETE", `/api/favorites/${id}?userId=${alice}`, undefined, 204);
    expect(rows("SELECT id FROM favorites")).toEqual(others);
  },
  "PATCH /api/favorites/:id": async () => {
    expect(await ok("PATCH", `/api/favorites/${f.favoriteId}?userId=${alice}`, { notes: "Biscuit's favourite" })).toMatchObject({ id: f.favoriteId, notes: "Biscuit's favourite" });
    expect(rows("SELECT notes FROM favorites WHERE product_id = ? ORDER BY id", f.product.id)).toEqual([{ notes: "Biscuit's favourite" }, { notes: "a note" }]);
  },
  "GET /api/is-favorite": async () => {
    expect(await ok("GET", `/api/is-favorite?userId=${alice}&productId=${f.product.id}`)).toEqual({ isFavorite: true, favoriteId: f.favoriteId });
  },
  "GET /api/price-alerts": async () => {
    const body = (await ok("GET", `/api/price-alerts?userId=${alice}`)) as { id: number; userId: string }[];
    expect(body.map((a) => [a.id, a.userId])).toEqual(rows<{ id: number; user_id: string }>("SELECT id, user_id FROM price_alerts WHERE user_id = ? AND is_active = 1 ORDER BY id DESC", alice).map((r) => [r.id, r.user_id]));
  },
  "POST /api/price-alerts": async () => {
    const other = row<{ id: number }>("SELECT id FROM products WHERE id <> ? ORDER BY id DESC LIMIT 1", f.product.id).id;
    const body = (await ok("POST", "/api/price-alerts", { userId: bob, productId: other, email: "Bob@Example.com", targetPrice: 12.5 }, 201)) as { id: number };
    expect(row("SELECT user_id, product_id, email, target_price_pence, is_active FROM price_alerts WHERE id = ?", body.id)).toEqual({
      user_id: bob,
      product_id: other,
      email: "bob@example.com",
      target_price_pence: 1250,
      is_active: 1,
    });
  },
  "DELETE /api/price-alerts/:id": async () => {
    const id = row<{ id: number }>("INSERT INTO price_alerts (user_id, product_id, email, target_price_pence) VALUES (?, ?, 'a@example.com', 100) RETURNING id", alice, f.product.id).id;
    const others = rows("SELECT id FROM price_alerts WHERE id <> ?", id);
    await ok("DELETE", `/api/price-alerts/${id}?userId=${alice}`, undefined, 204);
    expect(rows("SELECT id FROM price_alerts")).toEqual(others);
  },
  "GET /api/alerts/unsubscribe": async () => {
    const id = row<{ id: number }>("INSERT INTO price_alerts (user_id, product_id, email, target_price_pence) VALUES (?, ?, 'a@example.com', 100) RETURNING id", alice, f.product.id).id;
    const response = await request("GET", `/api/alerts/unsubscribe?token=${signToken("alert-unsubscribe", id)}`);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain("Price alert switched off");
    expect(rows("SELECT id FROM price_alerts WHERE is_active = 0")).toEqual([{ id }]);
  },
  "POST /api/alerts/unsubscribe": async () => {
    const id = row<{ id: number }>("INSERT INTO price_alerts (user_id, product_id, email, target_price_pence) VALUES (?, ?, 'a@example.com', 100) RETURNING id", bob, f.product.id).id;
    expect(await ok("POST", `/api/alerts/unsubscribe?token=${signToken("alert-unsubscribe", id)}`, oneClick, 200, form)).toEqual({ unsubscribed: true, alreadyUnsubscribed: false });
    expect(row("SELECT is_active FROM price_alerts WHERE id = ?", id)).toEqual({ is_active: 0 });
    expect(row("SELECT is_active FROM price_alerts WHERE id = ?", f.alertId)).toEqual({ is_active: 1 });
  },
  "GET /api/subscribers/unsubscribe": async () => {
    const id = row<{ id: number }>("INSERT INTO email_subscribers (email) VALUES ('leaving@example.com') RETURNING id").id;
    const response = await request("GET", `/api/subscribers/unsubscribe?token=${signToken("newsletter-unsubscribe", id)}`);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain("Unsubscribed from the newsletter");
    expect(rows("SELECT id FROM email_subscribers WHERE is_active = 0")).toEqual([{ id }]);
  },
  "POST /api/subscribers/unsubscribe": async () => {
    const id = row<{ id: number }>("INSERT INTO email_subscribers (email) VALUES ('one-click@example.com') RETURNING id").id;
    expect(await ok("POST", `/api/subscribers/unsubscribe?token=${signToken("newsletter-unsubscribe", id)}`, oneClick, 200, form)).toEqual({ unsubscribed: true, alreadyUnsubscribed: false });
    expect(row("SELECT is_active FROM email_subscribers WHERE id = ?", id)).toEqual({ is_active: 0 });
    expect(row("SELECT is_active FROM email_subscribers WHERE id = ?", f.subscriberId)).toEqual({ is_active: 1 });
  },
};

/** Sends a request that must succeed with `status`; returns the JSON body (null for 204). */
async function ok(method: string, pathAndQuery: string, body?: unknown, status = 200, contentType?: string): Promise<unknown> {
  const response = await request(method, pathAndQuery, body, contentType);
  const text = await response.text();
  expect(response.status, `${method} ${pathAndQuery}: ${text}`).toBe(status);
  return status === 204 ? null : JSON.parse(text);
}

const routeKeys = routes.map(([method, path]) => `${method} ${path}`);

describe("the route table", () => {
  it("has a good-input and a bad-input test for every route, and none for routes it does not have", () => {
    expect(Object.keys(goodInput).sort()).toEqual([...routeKeys].sort());
    expect(Object.keys(badInput).sort()).toEqual([...routeKeys].sort());
  });
});

describe("bad input to each route: a clear 4xx error, and the database unchanged", () => {
  it.each(routeKeys)("%s", async (key) => {
    for (const bad of badInput[key]!()) {
      const before = databaseDigest();
      const response = await request(bad.method ?? "GET", bad.path, bad.body, bad.contentType);
      const label = `${bad.method ?? "GET"} ${bad.path.slice(0, 100)}`;
      expect(response.status, label).toBe(bad.status);
      expect(response.headers.get("content-type"), label).toMatch(/^application\/json/);
      const body = (await response.json()) as { error: string };
      expect(Object.keys(body), label).toEqual(["error"]);
      if (typeof bad.error === "string") expect(body.error, label).toBe(bad.error);
      else expect(body.error, label).toMatch(bad.error);
      if (bad.status === 405) expect(response.headers.get("allow"), label).toBe(bad.error.toString().replace(/.*use /, "").split(" or ").join(", "));
      expect(databaseDigest(), `${label} changed the database`).toBe(before);
    }
  });
});

describe("good input to each route: the data it answers, and where a write lands", () => {
  it.each(routeKeys)("%s", async (key) => {
    await goodInput[key]!();
  });
});

describe("HEAD", () => {
  it("answers a GET route's status and headers without the body", async () => {
    for (const path of ["/api/products?limit=2", `/api/products/${f.product.slug}`, "/api/health"]) {
      const get = await request("GET", path);
      const head = await request("HEAD", path);
      expect(head.status, path).toBe(200);
      expect(head.headers.get("content-type"), path).toBe(get.headers.get("content-type"));
      expect(head.headers.get("cache-control"), path).toBe(get.headers.get("cache-control"));
      expect(await head.text(), path).toBe("");
    }
    expect((await request("HEAD", "/api/products/no-such-product")).status).toBe(404);
  });
});

describe("cache headers", () => {
  it("let browsers and CDNs keep public catalogue reads briefly, and never a visitor's own data", async () => {
    const products = "public, max-age=10, stale-while-revalidate=60";
    const lists = "public, max-age=60, stale-while-revalidate=60";
    const cases: [string, string][] = [
      ["/api/products", products],
      ["/api/products/count", products],
      ["/api/products/featured", products],
      [`/api/products/${f.product.slug}`, products],
      ["/api/search?q=dog", products],
      ["/api/categories", lists],
      [`/api/categories/${f.category.id}`, lists],
      [`/api/categories/slug/${f.category.slug}`, lists],
      ["/api/retailers", lists],
      [`/api/retailers/${f.retailer.id}`, lists],
      ["/api/brands", lists],
      ["/api/vouchers", lists],
      ["/api/placeholder/10/10", "public, max-age=86400"],
      // Read by the admin form, which must see its own save at once.
      [`/api/products/by-id/${f.product.id}`, "no-store"],
      [`/api/affiliate-links?productId=${f.product.id}`, "no-store"],
      ["/api/health", "no-store"],
      [`/api/favorites?userId=${alice}`, "no-store"],
      [`/api/is-favorite?userId=${alice}&productId=${f.product.id}`, "no-store"],
      [`/api/price-alerts?userId=${alice}`, "no-store"],
      [`/api/recently-viewed?userId=${alice}`, "no-store"],
      ["/api/products?sort=nope", "no-store"],
      ["/api/nothing-here", "no-store"],
    ];
    for (const [path, expected] of cases) {
      // Twice: first from the handler, then from the response cache, which must say the same.
      api.cache.invalidate();
      for (let i = 0; i < 2; i++) expect((await request("GET", path)).headers.get("cache-control"), path).toBe(expected);
    }
    // An image drawn from a query string: it may not run scripts or be read as another type.
    const svg = await request("GET", "/api/placeholder/10/10?text=x");
    expect(svg.headers.get("content-security-policy")).toBe("default-src 'none'; style-src 'unsafe-inline'");
    expect(svg.headers.get("x-content-type-options")).toBe("nosniff");
    const write = await request("POST", "/api/recently-viewed", { userId: alice, productId: f.product.id });
    expect(write.status).toBe(204);
    expect(write.headers.get("cache-control")).toBe("no-store");
  });
});
