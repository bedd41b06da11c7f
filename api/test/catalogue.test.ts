import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Category, Retailer, Voucher } from "../../data/domain/catalogue.ts";
import { startTestServer, type TestServer } from "./server.ts";

let api: TestServer;
beforeAll(async () => {
  api = await startTestServer({ products: 120 });
});
afterAll(() => api.close());

describe("categories", () => {
  it("lists every category with id, name, slug, icon and description", async () => {
    const categories = await api.json<Category[]>("/api/categories");
    expect(categories.length).toBeGreaterThanOrEqual(12);
    for (const c of categories) expect(Object.keys(c).sort()).toEqual(["description", "icon", "id", "name", "slug"]);
    expect(categories.map((c) => c.slug)).toEqual(expect.arrayContaining(["dog-food", "cat-food"]));
    const icons = new Set(categories.map((c) => c.icon));
    for (const icon of ["bone", "fish", "baseball", "house", "shield-dog", "scissors", "whistle", "rabbit", "bird", "heart", "toy", "bed"]) {
      expect(icons).toContain(icon);
    }
  });

  it("reads one by id and by slug; unknown ones are 404", async () => {
    const [first] = await api.json<Category[]>("/api/categories");
    expect(await api.json(`/api/categories/${first!.id}`)).toEqual(first);
    expect(await api.json(`/api/categories/slug/${first!.slug}`)).toEqual(first);
    for (const path of ["/api/categories/99999", "/api/categories/slug/no-such-slug"]) {
      const response = await api.get(path);
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({ error: "Category not found" });
    }
  });
});

describe("retailers and brands", () => {
  it("lists the comparison retailers and reads one", async () => {
    const retailers = await api.json<Retailer[]>("/api/retailers");
    expect(retailers.map((r) => r.name)).toEqual(expect.arrayContaining(["Amazon", "Pets at Home", "Jollyes", "Zooplus", "eBay"]));
    const amazon = retailers.find((r) => r.name === "Amazon")!;
    expect(amazon.website).toMatch(/^https:\/\/www\.amazon\.co\.uk/);
    expect(await api.json(`/api/retailers/${amazon.id}`)).toEqual(amazon);
    const missing = await api.get("/api/retailers/99999");
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ error: "Retailer not found" });
  });

  it("lists distinct brands alphabetically", async () => {
    const brands = await api.json<string[]>("/api/brands");
    expect(brands.length).toBeGreaterThan(5);
    expect(new Set(brands).size).toBe(brands.length);
    expect(brands).toEqual([...brands].sort((a, b) => a.localeCompare(b, "en", { sensitivity: "base" })));
  });
});

describe("vouchers", () => {
  it("lists the eight seeded vouchers, all valid, soonest expiry first", async () => {
    const response = await api.get("/api/vouchers");
    expect(response.headers.get("x-total-count")).toBe("8");
    const vouchers = (await response.json()) as Voucher[];
    expect(vouchers).toHaveLength(8);
    expect(vouchers.every((v) => v.isValid)).toBe(true);
    expect(vouchers.map((v) => v.retailer).sort()).toEqual(
      ["Amazon", "Birdfood Direct", "Grooming Gang", "Jollyes", "Pet Planet", "Pets at Home", "VetUK", "Zooplus"].sort(),
    );
    expect(vouchers.map((v) => v.expiryDate)).toEqual([...vouchers.map((v) => v.expiryDate)].sort());
  });

  it("marks expired vouchers invalid and leaves them out of the active list", async () => {
    api.db.$client.prepare("UPDATE vouchers SET expiry_date = '2020-01-01' WHERE retailer = 'Zooplus'").run();
    const all = await api.json<Voucher[]>("/api/vouchers");
    expect(all.find((v) => v.retailer === "Zooplus")?.isValid).toBe(false);
    const active = await api.json<Voucher[]>("/api/vouchers?status=active");
    expect(active).toHaveLength(7);
    expect(active.some((v) => v.retailer === "Zooplus")).toBe(false);
  });

  it("orders by popularity, filters by retailer and pages", async () => {
    const popular = await api.json<Voucher[]>("/api/vouchers?sort=popular");
    expect(popular.map((v) => v.uses)).toEqual([...popular.map((v) => v.uses)].sort((a, b) => b - a));
    expect((await api.json<Voucher[]>("/api/vouchers?retailer=amazon")).map((v) => v.retailer)).toEqual(["Amazon"]);
    // The filter's "Petplanet" finds the vouchers entered as "Pet Planet"; a filter retailer without vouchers finds none.
    expect((await api.json<Voucher[]>("/api/vouchers?retailer=Petplanet")).map((v) => v.code)).toEqual(["PLANET8"]);
    expect((await api.json<Voucher[]>("/api/vouchers?retailer=Pet%20Planet")).map((v) => v.code)).toEqual(["PLANET8"]);
    expect((await api.json<Voucher[]>("/api/vouchers?retailer=PETS%20AT%20HOME")).map((v) => v.code)).toEqual(["PAWS10"]);
    const viovet = await api.get("/api/vouchers?retailer=Viovet");
    expect(viovet.headers.get("x-total-count")).toBe("0");
    expect(await viovet.json()).toEqual([]);
    // VetUK is not Viovet, nor is a name's prefix the retailer.
    expect(await api.json<Voucher[]>("/api/vouchers?retailer=Pet")).toEqual([]);
    const firstTwo = await api.json<Voucher[]>("/api/vouchers?sort=popular&limit=2");
    const nextTwo = await api.json<Voucher[]>("/api/vouchers?sort=popular&limit=2&offset=2");
    expect([...firstTwo, ...nextTwo]).toEqual(popular.slice(0, 4));
  });
});

describe("affiliate links, placeholder, health", () => {
  it("lists a product's price entries as the admin form reads them", async () => {
    const [product] = await api.json<{ id: number; prices: { retailerId: number }[] }[]>("/api/products?limit=1");
    const links = await api.json<{ retailerId: number; url: string; price: number }[]>(`/api/affiliate-links?productId=${product!.id}`);
    expect(links.map((l) => l.retailerId).sort()).toEqual(product!.prices.map((p) => p.retailerId).sort());
    for (const link of links) expect(link.url).toMatch(/^https:\/\//);
    const missing = await api.get("/api/affiliate-links?productId=999999");
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ error: "Product not found" });
  });

  it("draws an SVG placeholder with clamped size and escaped text", async () => {
    const response = await api.get("/api/placeholder/400/300?text=%3Cb%3EKong");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^image\/svg\+xml/);
    const svg = await response.text();
    expect(svg).toContain('width="400" height="300"');
    expect(svg).toContain("&lt;b&gt;Kong");
    expect(await (await api.get("/api/placeholder/99999/0")).text()).toContain('width="2000" height="16"');
  });

  it("reports health without caching", async () => {
    const response = await api.get("/api/health");
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(await response.json()).toMatchObject({ status: "ok", database: "ok", products: 120 });
  });

  it("answers unknown API paths with a JSON 404", async () => {
    const response = await api.get("/api/nothing-here");
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: "Not found" });
  });
});
