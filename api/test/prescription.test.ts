/**
 * Prescription-only veterinary medicines (POM-V, POM-VPS) may not be advertised to the public,
 * through the real server on a real SQLite file: the admin sets a product's legal category; such
 * a product loses its was price and deal facts, can never be featured (refused, nothing stored)
 * nor appear in the featured list, gets no new price alert of any kind (422, nothing stored), and
 * its existing alerts never mail, while the same alerts on any other product do.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ProductJson as Product } from "../../data/domain/catalogue-json.ts";
import { startTestServer, type TestServer } from "./server.ts";

let api: TestServer;
/** Two in-stock products with a was price the history supports: `pom` is made prescription-only, `control` stays as it is. */
let pom: { id: number; slug: string };
let control: { id: number; slug: string };
beforeAll(async () => {
  api = await startTestServer({ products: 60 });
  const withWas = api.db.$client
    .prepare("SELECT id, slug FROM products WHERE original_price_pence IS NOT NULL AND best_price_pence IS NOT NULL AND is_featured = 0 ORDER BY rank LIMIT 2")
    .all() as { id: number; slug: string }[];
  expect(withWas).toHaveLength(2);
  [pom, control] = withWas as [typeof pom, typeof control];
});
afterAll(() => api.close());

const row = <T>(sql: string, ...params: unknown[]) => api.db.$client.prepare(sql).get(...params) as T;
const stored = (id: number) => row<{ legal: string; featured: number; was: number | null }>("SELECT legal_category AS legal, is_featured AS featured, original_price_pence AS was FROM products WHERE id = ?", id);
const adminProduct = async (id: number) => (await (await api.admin("GET", `/api/admin/products/${id}`)).json()) as Record<string, unknown>;

async function put(id: number, changes: Record<string, unknown>, drop: string[] = []): Promise<Response> {
  const body = { ...(await adminProduct(id)), ...changes };
  for (const field of drop) delete body[field];
  return api.admin("PUT", `/api/products/${id}`, body);
}

async function expectError(response: Response, status: number, error: string): Promise<void> {
  expect(response.status).toBe(status);
  expect(await response.json()).toEqual({ error });
}

const featuredRefusal = "isFeatured: a prescription-only medicine (POM-V or POM-VPS) cannot be featured";

describe("setting a product's legal category", () => {
  it("stores POM-V, drops the product's was price and deal facts, and says so in the API; the other product keeps both", async () => {
    expect(stored(pom.id).was).not.toBeNull();
    expect((await adminProduct(pom.id)).legalCategory).toBe("none");
    const response = await put(pom.id, { legalCategory: "POM-V" });
    expect(response.status).toBe(200);
    expect(stored(pom.id)).toEqual({ legal: "POM-V", featured: 0, was: null });
    expect((await adminProduct(pom.id)).legalCategory).toBe("POM-V");
    const detail = await api.json<Product & { deal: unknown }>(`/api/products/${pom.slug}`);
    expect(detail).toMatchObject({ legalCategory: "POM-V", originalPrice: null, deal: null });
    const other = await api.json<Product & { deal: { wasPrice: number | null } }>(`/api/products/${control.slug}`);
    expect(other.legalCategory).toBe("none");
    expect(other.originalPrice).not.toBeNull();
    expect(other.deal.wasPrice).toBe(other.originalPrice);
    expect(row<{ summary: string }>("SELECT summary FROM audit_log ORDER BY id DESC LIMIT 1").summary).toMatch(/: legalCategory$/);
  });

  it("keeps the stored category when an update leaves it out, and takes the supported was price back when it is no longer prescription-only", async () => {
    expect((await put(pom.id, { description: "Tablets for dogs." }, ["legalCategory"])).status).toBe(200);
    expect(stored(pom.id)).toMatchObject({ legal: "POM-V", was: null });
    expect((await put(pom.id, { legalCategory: "AVM-GSL" })).status).toBe(200);
    expect(stored(pom.id).legal).toBe("AVM-GSL");
    expect(stored(pom.id).was).not.toBeNull();
    expect((await put(pom.id, { legalCategory: "POM-V" })).status).toBe(200);
    expect(stored(pom.id)).toMatchObject({ legal: "POM-V", was: null });
  });

  it("refuses to feature a prescription-only medicine, sent with it or kept, and stores nothing", async () => {
    const before = stored(pom.id);
    await expectError(await put(pom.id, { legalCategory: "POM-VPS", isFeatured: true }), 400, featuredRefusal);
    await expectError(await put(pom.id, { isFeatured: true }, ["legalCategory"]), 400, featuredRefusal);
    expect(stored(pom.id)).toEqual(before);
    const products = row<{ n: number }>("SELECT count(*) AS n FROM products").n;
    const create = (legalCategory: string) =>
      api.admin("POST", "/api/products", { name: `Wormer ${legalCategory}`, categoryId: row<{ id: number }>("SELECT category_id AS id FROM products WHERE id = ?", pom.id).id, isFeatured: true, legalCategory });
    await expectError(await create("POM-V"), 400, featuredRefusal);
    expect(row<{ n: number }>("SELECT count(*) AS n FROM products").n).toBe(products);
    // Only the prescription-only categories are refused.
    const created = await create("NFA-VPS");
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: number };
    expect(stored(id)).toMatchObject({ legal: "NFA-VPS", featured: 1 });
  });
});

describe("the featured list", () => {
  it("leaves out a prescription-only medicine whose row is marked featured (written around the writer)", async () => {
    const top = await api.json<Product[]>("/api/products/featured?limit=3");
    expect(top.length).toBe(3);
    api.db.$client.prepare("UPDATE products SET legal_category = 'POM-VPS' WHERE id = ?").run(top[0]!.id);
    api.cache.invalidate();
    const after = await api.json<Product[]>("/api/products/featured?limit=3");
    expect(after.map((product) => product.id)).not.toContain(top[0]!.id);
    expect(after.slice(0, 2).map((product) => product.id)).toEqual([top[1]!.id, top[2]!.id]);
    api.db.$client.prepare("UPDATE products SET legal_category = 'none' WHERE id = ?").run(top[0]!.id);
    api.cache.invalidate();
  });
});

describe("price alerts", () => {
  const visitor = `user_${"prescription".padEnd(24, "a")}`;
  const alertBody = (productId: number, kind: string) => ({
    userId: visitor,
    productId,
    email: "owner@example.com",
    kind,
    ...(kind === "target" ? { targetPrice: 5 } : kind === "drop" ? { dropPercent: 10 } : {}),
  });
  const post = (body: unknown) => fetch(`${api.baseUrl}/api/price-alerts`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  const alerts = () => row<{ n: number }>("SELECT count(*) AS n FROM price_alerts").n;

  it("refuses a new alert of every kind on a prescription-only medicine with 422, storing nothing; takes one on an NFA-VPS product", async () => {
    const before = alerts();
    for (const kind of ["target", "drop", "back-in-stock", "lowest-90"]) {
      await expectError(await post(alertBody(pom.id, kind)), 422, "productId: price alerts are not offered for prescription-only medicines (POM-V, POM-VPS)");
    }
    expect(alerts()).toBe(before);
    api.db.$client.prepare("UPDATE products SET legal_category = 'NFA-VPS' WHERE id = ?").run(control.id);
    expect((await post(alertBody(control.id, "target"))).status).toBe(201);
    expect(alerts()).toBe(before + 1);
    api.db.$client.prepare("DELETE FROM price_alerts WHERE user_id = ?").run(visitor);
    api.db.$client.prepare("UPDATE products SET legal_category = 'none' WHERE id = ?").run(control.id);
  });

  it("never mails an existing alert on a prescription-only medicine, while the same alerts fire once it is not one", async () => {
    const outbox = path.join(api.dir, "outbox");
    const mails = () => (fs.existsSync(outbox) ? fs.readdirSync(outbox).filter((file) => file.endsWith(".eml")) : []);
    const mailed = new Set(mails());
    const best = (id: number) => row<{ best: number }>("SELECT best_price_pence AS best FROM products WHERE id = ?", id).best;
    const insert = api.db.$client.prepare(
      `INSERT INTO price_alerts (user_id, product_id, kind, target_price_pence, drop_percent, reference_price_pence, last_in_stock, email, confirmed_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, '2026-01-01T00:00:00.000Z') RETURNING id`,
    );
    const add = (productId: number, kind: string, target: number | null, drop: number | null, reference: number | null, lastInStock: number | null, email: string) =>
      (insert.get(visitor, productId, kind, target, drop, reference, lastInStock, email) as { id: number }).id;
    // Each due now: the price is under the target, 10% below the reference, and back in stock.
    const pomAlerts = [
      add(pom.id, "target", best(pom.id) + 100, null, null, null, "pom-target@example.com"),
      add(pom.id, "drop", null, 10, best(pom.id) * 2, null, "pom-drop@example.com"),
      add(pom.id, "back-in-stock", null, null, null, 0, "pom-stock@example.com"),
    ];
    add(control.id, "target", best(control.id) + 100, null, null, null, "control-target@example.com");

    const first = await api.services.alerts.runNow();
    expect(first.sent).toBe(1);
    // The outbox also holds the address confirmation the earlier test's alert asked for: alert mails by recipient.
    const recipients = mails()
      .filter((file) => !mailed.has(file))
      .map((file) => /^To: (.+)$/m.exec(fs.readFileSync(path.join(outbox, file), "utf8"))?.[1]?.trim());
    expect(recipients.filter((to) => to?.endsWith("@example.com") && to !== "owner@example.com")).toEqual(["control-target@example.com"]);
    const notified = () => (api.db.$client.prepare("SELECT last_notified_at FROM price_alerts WHERE id IN (SELECT value FROM json_each(?)) ORDER BY id").all(JSON.stringify(pomAlerts)) as { last_notified_at: string | null }[]).map((r) => r.last_notified_at);
    expect(notified()).toEqual([null, null, null]);
    // A second check changes nothing for them either.
    expect((await api.services.alerts.runNow()).sent).toBe(0);

    // The same alerts were due all along: once the product is not prescription-only they fire.
    expect((await put(pom.id, { legalCategory: "none" })).status).toBe(200);
    expect((await api.services.alerts.runNow()).sent).toBe(3);
    expect(notified().every((at) => at !== null)).toBe(true);
  });
});
