import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Product } from "../../data/domain/catalogue.ts";
import { startTestServer, type TestServer } from "./server.ts";

let api: TestServer;
let products: Product[];
beforeAll(async () => {
  api = await startTestServer({ products: 40 });
  products = await api.json<Product[]>("/api/products?limit=30");
});
afterAll(() => api.close());

const userId = "user_abcdefghijklmnopqrstuvwx";
const post = (path: string, body: unknown, contentType = "application/json") =>
  fetch(api.baseUrl + path, { method: "POST", headers: { "content-type": contentType }, body: typeof body === "string" ? body : JSON.stringify(body) });
const count = (sql: string, ...params: unknown[]) => (api.db.$client.prepare(sql).get(...params) as { n: number }).n;

/** Sends a bad request and checks it answers `status` with an `{ error }` naming `mentions`, storing nothing. */
async function rejects(path: string, body: unknown, status: number, mentions: string, table: string, contentType?: string) {
  const before = count(`SELECT count(*) AS n FROM ${table}`);
  const response = await post(path, body, contentType);
  expect(response.status).toBe(status);
  const json = (await response.json()) as { error: string };
  expect(Object.keys(json)).toEqual(["error"]);
  expect(json.error.toLowerCase()).toContain(mentions.toLowerCase());
  expect(count(`SELECT count(*) AS n FROM ${table}`)).toBe(before);
}

describe("POST /api/subscribers", () => {
  it("stores a new address as a website subscriber, lower-cased, and accepts it again without a second row", async () => {
    const first = await post("/api/subscribers", { email: "  Pet.Owner@Example.co.uk " });
    expect(first.status).toBe(201);
    expect(await first.json()).toEqual({ subscribed: false, status: "pending_confirmation", confirmationSent: true });
    const again = await post("/api/subscribers", { email: "pet.owner@example.co.uk" });
    expect(again.status).toBe(200);
    expect(count("SELECT count(*) AS n FROM email_subscribers WHERE email = 'pet.owner@example.co.uk' AND source = 'website' AND is_active = 1")).toBe(1);
  });

  it("signs an address that had unsubscribed up again as pending: no silent re-activation", async () => {
    await post("/api/subscribers", { email: "back@example.com" });
    api.db.$client.prepare("UPDATE email_subscribers SET is_active = 0 WHERE email = 'back@example.com'").run();
    expect((await post("/api/subscribers", { email: "back@example.com" })).status).toBe(200);
    expect(count("SELECT count(*) AS n FROM email_subscribers WHERE email = 'back@example.com' AND is_active = 1")).toBe(1);
    expect(count("SELECT count(*) AS n FROM email_subscribers WHERE email = 'back@example.com' AND confirmed_at IS NULL")).toBe(1);
  });

  it.each([
    [{}, "email"],
    [{ email: "" }, "valid email"],
    [{ email: "not-an-email" }, "valid email"],
    [{ email: `${"a".repeat(250)}@example.com` }, "valid email"],
    [{ email: 42 }, "email"],
    [{ email: "ok@example.com", source: "<script>" }, "source"],
  ])("rejects %j", async (body, mentions) => {
    await rejects("/api/subscribers", body, 400, mentions, "email_subscribers");
  });

  it("rejects a body that is not JSON, not declared JSON, empty or too large", async () => {
    await rejects("/api/subscribers", "{not json", 400, "not valid JSON", "email_subscribers");
    await rejects("/api/subscribers", "email=a@b.com", 415, "JSON", "email_subscribers", "application/x-www-form-urlencoded");
    // The media type must be JSON itself, not merely mention it.
    await rejects("/api/subscribers", { email: "a@b.com" }, 415, "JSON", "email_subscribers", "text/plain; note=application/json");
    await rejects("/api/subscribers", { email: "a@b.com" }, 415, "JSON", "email_subscribers", "application/jsonp");
    await rejects("/api/subscribers", "", 400, "required", "email_subscribers");
    await rejects("/api/subscribers", "  \n ", 400, "Request body is required", "email_subscribers");
    await rejects("/api/subscribers", { email: "a@b.com", pad: "x".repeat(20_000) }, 413, "exceeds the limit", "email_subscribers");
  });
});

describe("recently viewed", () => {
  it("keeps one entry per product, newest first, the last 20", async () => {
    const visitor = "user_recentlyviewedtester0100";
    for (const product of products.slice(0, 22)) {
      expect((await post("/api/recently-viewed", { userId: visitor, productId: product.id })).status).toBe(204);
    }
    // Viewing an older product again moves it to the front, without a second entry.
    await post("/api/recently-viewed", { userId: visitor, productId: products[5]!.id });
    const items = await api.json<{ id: number; slug: string; name: string; image: string; bestPrice: number | null }[]>(
      `/api/recently-viewed?userId=${visitor}`,
    );
    expect(items).toHaveLength(20);
    expect(items[0]!.id).toBe(products[5]!.id);
    expect(items[1]!.id).toBe(products[21]!.id);
    expect(new Set(items.map((i) => i.id)).size).toBe(20);
    expect(items.map((i) => i.id)).not.toContain(products[0]!.id);
    expect(Object.keys(items[0]!)).toEqual(expect.arrayContaining(["id", "slug", "name", "image", "bestPrice"]));
    expect(await api.json(`/api/recently-viewed?userId=user_nobodyhasviewedanything0`)).toEqual([]);
  });

  it.each([
    [{ productId: 1 }, "userId"],
    [{ userId: "bob", productId: 1 }, "userId"],
    [{ userId: `user_${"x".repeat(65)}`, productId: 1 }, "userId"],
    [{ userId, productId: "abc" }, "productId"],
    [{ userId, productId: 0 }, "productId"],
    [{ userId, productId: 999999 }, "unknown product"],
  ])("rejects %j", async (body, mentions) => {
    await rejects("/api/recently-viewed", body, 400, mentions, "recently_viewed");
  });

  it("rejects a bad visitor id on reads", async () => {
    for (const [path, message] of [
      ["/api/recently-viewed", "userId is required"],
      ["/api/recently-viewed?userId=admin", "userId must be an anonymous visitor id (user_ followed by 24 lower-case letters or digits)"],
    ]) {
      const response = await api.get(path!);
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({ error: message });
    }
  });
});

describe("POST /api/clicks", () => {
  const click = (over: Record<string, unknown> = {}) => ({
    retailer: "Amazon",
    productName: products[0]!.name,
    productId: products[0]!.id,
    price: 12.99,
    url: "https://www.amazon.co.uk/dp/B000000000?tag=x",
    timestamp: new Date().toISOString(),
    ...over,
  });

  it("stores clicks as user behaviour with the retailer and product resolved", async () => {
    const response = await post("/api/clicks", { userId, sessionId: "session_abcdefghijkl000000000000", events: [click(), click({ productId: undefined, retailer: "Viovet" })] });
    expect(response.status).toBe(204);
    const rows = api.db.$client
      .prepare("SELECT product_id, retailer_id, category_id, session_id, metadata FROM user_behaviour WHERE user_id = ? AND action = 'affiliate_click' ORDER BY id")
      .all(userId) as { product_id: number | null; retailer_id: number | null; category_id: number | null; session_id: string; metadata: string }[];
    expect(rows).toHaveLength(2);
    expect(rows[0]!.product_id).toBe(products[0]!.id);
    expect(rows[0]!.category_id).toBe(products[0]!.categoryId);
    expect(rows[0]!.retailer_id).toBeGreaterThan(0);
    expect(rows[0]!.session_id).toBe("session_abcdefghijkl000000000000");
    expect(JSON.parse(rows[0]!.metadata)).toMatchObject({ retailer: "Amazon", price: 12.99 });
    expect(rows[1]!.product_id).toBeNull();
  });

  it("stores a click at a retailer it does not know, without a retailer id", async () => {
    const visitor = "user_unknownretailerclicker00";
    expect((await post("/api/clicks", { userId: visitor, events: [click({ retailer: "Corner Pet Shop" })] })).status).toBe(204);
    const row = api.db.$client.prepare("SELECT retailer_id, session_id, metadata FROM user_behaviour WHERE user_id = ?").get(visitor) as {
      retailer_id: number | null;
      session_id: string | null;
      metadata: string;
    };
    expect(row.retailer_id).toBeNull();
    expect(row.session_id).toBeNull();
    expect(JSON.parse(row.metadata).retailer).toBe("Corner Pet Shop");
  });

  it.each([
    [() => ({ events: [click()] }), "userId"],
    [() => ({ userId, events: [] }), "events"],
    [() => ({ userId, events: Array.from({ length: 21 }, () => click()) }), "20"],
    [() => ({ userId, events: [click({ productId: 999999 })] }), "unknown product"],
    [() => ({ userId, events: [click({ price: -1 })] }), "price"],
    [() => ({ userId, events: [click({ timestamp: "yesterday" })] }), "timestamp"],
    [() => ({ userId, events: [click({ retailer: "" })] }), "retailer"],
  ])("rejects bad click batch %#", async (body, mentions) => {
    await rejects("/api/clicks", body(), 400, mentions, "user_behaviour");
  });
});

describe("POST /api/vouchers/{id}/uses", () => {
  const visitor = "user_vouchercopier00000000000";
  const other = "user_othervouchercopier000000";
  it("counts a visitor's use of a voucher once a day; another visitor's use counts too", async () => {
    const [first, second] = api.db.$client.prepare("SELECT id, uses FROM vouchers ORDER BY id LIMIT 2").all() as { id: number; uses: number }[];
    const allUses = () => api.db.$client.prepare("SELECT id, uses FROM vouchers ORDER BY id").all() as { id: number; uses: number }[];
    const before = allUses();
    for (let i = 0; i < 3; i++) expect((await post(`/api/vouchers/${first!.id}/uses`, { userId: visitor })).status).toBe(204);
    expect(count("SELECT uses AS n FROM vouchers WHERE id = ?", first!.id)).toBe(first!.uses + 1);
    expect((await post(`/api/vouchers/${first!.id}/uses`, { userId: other })).status).toBe(204);
    expect((await post(`/api/vouchers/${second!.id}/uses`, { userId: visitor })).status).toBe(204);
    expect(allUses()).toEqual(
      before.map((v) => (v.id === first!.id ? { ...v, uses: v.uses + 2 } : v.id === second!.id ? { ...v, uses: v.uses + 1 } : v)),
    );
  });
  it("rejects unknown and malformed ids and a missing or malformed visitor id, changing nothing", async () => {
    const allUses = () => api.db.$client.prepare("SELECT id, uses FROM vouchers ORDER BY id").all();
    const { id } = api.db.$client.prepare("SELECT id FROM vouchers LIMIT 1").get() as { id: number };
    const before = allUses();
    const usesRows = count("SELECT count(*) AS n FROM voucher_uses");
    const missing = await post("/api/vouchers/999999/uses", { userId: visitor });
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ error: "Voucher not found" });
    const malformed = await post("/api/vouchers/abc/uses", { userId: visitor });
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toEqual({ error: "id must be a whole number" });
    for (const body of [{}, { userId: "user_--------" }, { userId: "user_aaaaaaaa" }]) {
      expect((await post(`/api/vouchers/${id}/uses`, body)).status).toBe(400);
    }
    expect(allUses()).toEqual(before);
    expect(count("SELECT count(*) AS n FROM voucher_uses")).toBe(usesRows);
  });
});
