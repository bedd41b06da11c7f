import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ProductJson as Product } from "../../data/domain/catalogue-json.ts";
import { recomputeBestPrices } from "../../data/db/offers.ts";
import { sortOptions } from "../../data/domain/sorting.ts";
import { startTestServer, type TestServer } from "./server.ts";

let api: TestServer;
/** Products given boundary data before any request: best prices on whole pounds, search words in known fields. */
const edge = { tenPounds: 0, twentyPounds: 0, nameMatch: 0, brandMatch: 0, descriptionMatch: 0, twins: [] as number[] };
beforeAll(async () => {
  api = await startTestServer({ products: 300 });
  const sqlite = api.db.$client;
  const ids = (sqlite.prepare("SELECT id FROM products ORDER BY rank").all() as { id: number }[]).map((row) => row.id);
  // The seed's prices never sit on a whole pound; these two do (delivered free, so the total is the
  // item price), so the bounds' inclusiveness is tested.
  const setBest = (productId: number, pence: number) => {
    sqlite.prepare("UPDATE product_prices SET price_pence = ? + 100 * (SELECT count(*) FROM product_prices o WHERE o.product_id = product_prices.product_id AND o.id < product_prices.id), in_stock = 1, price_override = 0, delivery_pence = 0 WHERE product_id = ?").run(pence, productId);
    recomputeBestPrices(api.db, [productId]);
  };
  [edge.tenPounds, edge.twentyPounds] = [ids[5]!, ids[6]!];
  setBest(edge.tenPounds, 1000);
  setBest(edge.twentyPounds, 2000);
  // One made-up word, in the name of a low-ranked product, the brand of a mid-ranked one and the
  // description of the best-ranked one: the best match (the name) must still come first.
  [edge.descriptionMatch, edge.brandMatch, edge.nameMatch] = [ids[0]!, ids[100]!, ids[250]!];
  sqlite.prepare("UPDATE products SET description = description || ' Zanzibarian recipe.' WHERE id = ?").run(edge.descriptionMatch);
  sqlite.prepare("UPDATE products SET brand = 'Zanzibarian' WHERE id = ?").run(edge.brandMatch);
  sqlite.prepare("UPDATE products SET name = 'Zanzibarian Chew Toy' WHERE id = ?").run(edge.nameMatch);
  // Two products whose searchable text is the same score alike: the better-ranked one first.
  edge.twins = [ids[10]!, ids[20]!];
  const twin = sqlite.prepare("UPDATE products SET name = 'Quokka Treat', brand = 'Hopper', description = 'Treats.', category_id = ? WHERE id = ?");
  const { category_id } = sqlite.prepare("SELECT category_id FROM products WHERE id = ?").get(ids[10]) as { category_id: number };
  for (const id of [...edge.twins].reverse()) twin.run(category_id, id);
});
afterAll(() => api.close());

const discount = (p: Product) =>
  p.originalPrice !== null && p.bestPrice !== null && p.originalPrice > p.bestPrice ? (p.originalPrice - p.bestPrice) / p.originalPrice : 0;

/** All products matching a query string, paged through with limit=100. */
async function all(query = ""): Promise<Product[]> {
  const result: Product[] = [];
  for (let offset = 0; ; offset += 100) {
    const page = await api.json<Product[]>(`/api/products?${query}&limit=100&offset=${offset}`);
    result.push(...page);
    if (page.length < 100) return result;
  }
}

const isTwoDecimals = (n: number) => Math.round(n * 100) / 100 === n && Number.isInteger(Math.round(n * 100));

describe("GET /api/products", () => {
  it("returns 15 products by default, best sellers first, in the public product shape", async () => {
    const response = await api.get("/api/products");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/application\/json/);
    expect(response.headers.get("cache-control")).toMatch(/max-age=10/);
    const products = (await response.json()) as Product[];
    expect(products).toHaveLength(15);
    expect(products.map((p) => p.rank)).toEqual([...products.map((p) => p.rank)].sort((a, b) => a - b));
    expect(products[0]!.rank).toBe(1);
    const product = products[0]!;
    expect(Object.keys(product).sort()).toEqual(
      [
        "id", "name", "slug", "description", "image", "brand", "categoryId", "category", "rating", "reviewCount", "bestPrice",
        "originalPrice", "bestDelivery", "packSize", "bestRetailerId", "bestRetailer", "prices", "isFeatured", "rank", "createdAt", "lastEditedAt",
        "kcalPerKg", "feedingGuide", "foodFor", "legalCategory", "lifeStage", "foodType", "mainProtein", "specialDiets",
      ].sort(),
    );
    expect(product.category).toEqual({ name: expect.any(String), slug: expect.any(String) });
    expect(product.prices.length).toBeGreaterThanOrEqual(2);
    for (const offer of product.prices) {
      expect(offer.retailer).toEqual({ key: expect.stringMatching(/^[a-z-]+$/), name: expect.any(String), logo: expect.stringMatching(/^\/retailers\/.+\.svg$/) });
      expect(offer.productId).toBe(product.id);
      expect(isTwoDecimals(offer.price)).toBe(true);
      expect(isTwoDecimals(offer.total)).toBe(true);
    }
  });

  it("states each product's pack size from its name, for unit prices (none for a size word)", async () => {
    const products = await all();
    // Single bags named "... 12kg" (multipacks, "2 x 6kg", have their own parser tests).
    const kibble = products.filter((p) => /\s\d+(\.\d+)?kg$/.test(p.name) && !/\sx\s/i.test(p.name));
    expect(kibble.length).toBeGreaterThan(5);
    for (const p of kibble) {
      const kg = Number(/(\d+(?:\.\d+)?)kg$/.exec(p.name)![1]);
      expect(p.packSize).toEqual({ amount: Math.round(kg * 1000), unit: "kg", label: `${kg}kg` });
    }
    expect(products.some((p) => p.packSize === null)).toBe(true);
  });

  it("derives bestPrice, bestDelivery and bestRetailer from the cheapest in-stock total to the door", async () => {
    let withDelivery = 0;
    let wonOnDelivery = 0;
    for (const product of await all()) {
      for (const offer of product.prices) expect(Math.round(offer.total * 100)).toBe(Math.round(offer.price * 100) + Math.round((offer.delivery ?? 0) * 100));
      const inStock = product.prices.filter((o) => o.inStock && !o.stale);
      if (inStock.length === 0) {
        expect(product.bestPrice).toBeNull();
        continue;
      }
      const cheapest = Math.min(...inStock.map((o) => o.total));
      expect(product.bestPrice).toBe(cheapest);
      const bestOffer = inStock.find((o) => o.retailerId === product.bestRetailerId)!;
      expect(bestOffer.total).toBe(cheapest);
      expect(product.bestDelivery).toBe(bestOffer.delivery);
      expect(product.bestRetailer?.name).toBe(bestOffer.retailer.name);
      // Offers are listed cheapest to the door first: the best one leads.
      expect(product.prices[0]!.total).toBe(cheapest);
      if (product.originalPrice !== null) expect(product.originalPrice).toBeGreaterThan(product.bestPrice!);
      if ((bestOffer.delivery ?? 0) > 0) withDelivery += 1;
      if (inStock.some((o) => o.price < bestOffer.price)) wonOnDelivery += 1;
    }
    // The seed makes both cases common: a best price carrying delivery, and a dearer item winning by its delivery.
    expect(withDelivery).toBeGreaterThan(10);
    expect(wonOnDelivery).toBeGreaterThan(5);
  });

  it("filters by category slug", async () => {
    const categories = await api.json<{ slug: string }[]>("/api/categories");
    const dogFood = await all("category=dog-food");
    expect(dogFood.length).toBeGreaterThan(0);
    expect(dogFood.every((p) => p.category.slug === "dog-food")).toBe(true);
    let total = 0;
    for (const { slug } of categories) total += (await api.json<{ count: number }>(`/api/products/count?category=${slug}`)).count;
    expect(total).toBe((await api.json<{ count: number }>("/api/products/count")).count);
    expect(await api.json("/api/products?category=no-such-category")).toEqual([]);
  });

  it("filters by retailer id (products that retailer sells)", async () => {
    const retailers = await api.json<{ id: number; name: string }[]>("/api/retailers");
    const zooplus = retailers.find((r) => r.name === "Zooplus")!;
    const products = await all(`retailer=${zooplus.id}`);
    expect(products.length).toBeGreaterThan(0);
    expect(products.every((p) => p.prices.some((o) => o.retailerId === zooplus.id))).toBe(true);
    const everything = await all();
    expect(products.length).toBe(everything.filter((p) => p.prices.some((o) => o.retailerId === zooplus.id)).length);
  });

  it("filters by brand, ignoring case", async () => {
    const products = await all("brand=royal%20canin");
    expect(products.length).toBeGreaterThan(0);
    expect(products.every((p) => p.brand === "Royal Canin")).toBe(true);
  });

  it("filters by price bounds on the best price, inclusive", async () => {
    const products = await all("minPrice=10&maxPrice=25");
    expect(products.length).toBeGreaterThan(0);
    expect(products.every((p) => p.bestPrice !== null && p.bestPrice >= 10 && p.bestPrice <= 25)).toBe(true);
    const everything = await all();
    expect(products.length).toBe(everything.filter((p) => p.bestPrice !== null && p.bestPrice >= 10 && p.bestPrice <= 25).length);
    const over100 = await all("minPrice=100");
    expect(over100.every((p) => p.bestPrice! >= 100)).toBe(true);
  });

  it("includes a best price exactly on either bound, and excludes one a penny outside", async () => {
    const ids = async (query: string) => (await all(query)).map((p) => p.id);
    const between = await ids("minPrice=10&maxPrice=20");
    expect(between).toContain(edge.tenPounds);
    expect(between).toContain(edge.twentyPounds);
    expect(await ids("maxPrice=20")).toContain(edge.twentyPounds);
    expect(await ids("minPrice=20")).toContain(edge.twentyPounds);
    expect(await ids("minPrice=20&maxPrice=20")).toEqual([edge.twentyPounds]);
    expect(await ids("maxPrice=19.99")).not.toContain(edge.twentyPounds);
    expect(await ids("minPrice=20.01")).not.toContain(edge.twentyPounds);
    expect(await ids("minPrice=10.01&maxPrice=20")).not.toContain(edge.tenPounds);
    expect((await api.json<{ count: number }>("/api/products/count?minPrice=20&maxPrice=20")).count).toBe(1);
    expect((await api.json<{ count: number }>("/api/products/count?minPrice=10&maxPrice=10")).count).toBe(1);
  });

  it("leaves products with nothing in stock out of any price-bounded list", async () => {
    const noPrice = (await all()).filter((p) => p.bestPrice === null).map((p) => p.id);
    expect(noPrice.length).toBeGreaterThan(0);
    const bounded = new Set((await all("minPrice=0")).map((p) => p.id));
    for (const id of noPrice) expect(bounded.has(id)).toBe(false);
  });

  it("combines filters and counts the same set", async () => {
    const query = "category=dog-food&minPrice=20";
    const products = await all(query);
    expect(products.every((p) => p.category.slug === "dog-food" && p.bestPrice! >= 20)).toBe(true);
    expect((await api.json<{ count: number }>(`/api/products/count?${query}`)).count).toBe(products.length);
  });

  it.each(sortOptions.map((o) => o.value))("sorts by %s", async (sort) => {
    const products = await all(`sort=${sort}`);
    expect(products.length).toBe((await api.json<{ count: number }>("/api/products/count")).count);
    const key: Record<string, (p: Product) => number> = {
      rank_asc: (p) => p.rank,
      price_asc: (p) => p.bestPrice ?? Number.POSITIVE_INFINITY,
      price_desc: (p) => -(p.bestPrice ?? Number.NEGATIVE_INFINITY),
      // Products without reviews have no rating: after every reviewed one.
      rating_desc: (p) => (p.reviewCount > 0 ? -p.rating : 1),
      savings_desc: (p) => -discount(p),
    };
    const values = products.map(key[sort]!);
    expect(values).toEqual([...values].sort((a, b) => a - b));
  });

  it("pages without gaps or repeats", async () => {
    const first = await api.json<Product[]>("/api/products?sort=price_asc&limit=100");
    const pages: Product[] = [];
    for (let offset = 0; offset < 100; offset += 15) {
      pages.push(...(await api.json<Product[]>(`/api/products?sort=price_asc&offset=${offset}&limit=15`)));
    }
    expect(pages.slice(0, 100).map((p) => p.id)).toEqual(first.map((p) => p.id));
    expect(await api.json("/api/products?offset=100000")).toEqual([]);
    expect(await api.json<Product[]>("/api/products?limit=1")).toHaveLength(1);
    expect(await api.json<Product[]>("/api/products?limit=100")).toHaveLength(100);
  });

  it("treats empty parameters as not given", async () => {
    const plain = await api.json<Product[]>("/api/products");
    expect(await api.json<Product[]>("/api/products?category=&brand=&minPrice=&sort=&offset=&limit=")).toEqual(plain);
  });
});

describe("offer details", () => {
  it("reports each offer's stock, delivery and manual price as stored, and the product's best retailer", async () => {
    const sqlite = api.db.$client;
    const [flagged, soldOut] = (sqlite.prepare("SELECT id, slug FROM products ORDER BY rank LIMIT 2 OFFSET 40").all() as { id: number; slug: string }[]);
    const offerIds = (productId: number) => (sqlite.prepare("SELECT id FROM product_prices WHERE product_id = ? ORDER BY retailer_id").all(productId) as { id: number }[]).map((row) => row.id);
    const [manual, plain] = offerIds(flagged!.id);
    sqlite.prepare("UPDATE product_prices SET price_pence = 600, in_stock = 1, free_delivery = 1, price_override = 1, manual_price_pence = 450 WHERE id = ?").run(manual);
    sqlite.prepare("UPDATE product_prices SET price_pence = 500, in_stock = 0, free_delivery = 0, price_override = 0, manual_price_pence = NULL WHERE id = ?").run(plain);
    sqlite.prepare("UPDATE product_prices SET in_stock = 0 WHERE product_id = ?").run(soldOut!.id);
    recomputeBestPrices(api.db, [flagged!.id, soldOut!.id]);
    api.cache.invalidate();

    const product = await api.json<Product>(`/api/products/${flagged!.slug}`);
    const byId = new Map(product.prices.map((offer) => [offer.id, offer]));
    expect(byId.get(manual!)).toMatchObject({ price: 4.5, inStock: true, freeDelivery: true, priceOverride: true, manualPrice: 4.5 });
    expect(byId.get(plain!)).toMatchObject({ price: 5, inStock: false, freeDelivery: false, priceOverride: false, manualPrice: null });
    // The cheaper listed price is out of stock: the manual price is the best.
    expect(product.bestPrice).toBe(4.5);
    expect(product.bestRetailer?.name).toBe(byId.get(manual!)!.retailer.name);
    expect(product.prices[0]!.id).toBe(manual);

    // The admin form reads the listed price and the flags, not the effective price.
    const links = await api.json<{ retailerId: number; price: number; manualPrice: number | null; priceOverride: boolean; freeDelivery: boolean; inStock: boolean }[]>(
      `/api/affiliate-links?productId=${flagged!.id}`,
    );
    expect(links[0]).toMatchObject({ price: 6, manualPrice: 4.5, priceOverride: true, freeDelivery: true, inStock: true });
    expect(links[1]).toMatchObject({ price: 5, manualPrice: null, priceOverride: false, freeDelivery: false, inStock: false });

    const empty = await api.json<Product>(`/api/products/${soldOut!.slug}`);
    expect(empty.bestPrice).toBeNull();
    expect(empty.bestRetailer).toBeNull();
    expect(empty.bestRetailerId).toBeNull();
  });

  it("lists a product whose offers were all removed with no prices", async () => {
    const { id, slug } = api.db.$client.prepare("SELECT id, slug FROM products ORDER BY rank LIMIT 1 OFFSET 50").get() as { id: number; slug: string };
    api.db.$client.prepare("DELETE FROM product_prices WHERE product_id = ?").run(id);
    recomputeBestPrices(api.db, [id]);
    api.cache.invalidate();
    expect(await api.json<Product>(`/api/products/${slug}`)).toMatchObject({ prices: [], bestPrice: null, bestRetailer: null });
    expect((await all()).find((p) => p.id === id)!.prices).toEqual([]);
  });

  it("marks exactly the featured products as featured", async () => {
    api.cache.invalidate();
    const featured = new Set((api.db.$client.prepare("SELECT id FROM products WHERE is_featured = 1").all() as { id: number }[]).map((row) => row.id));
    const products = await all();
    expect(products.some((p) => !p.isFeatured)).toBe(true);
    for (const p of products) expect(p.isFeatured, p.slug).toBe(featured.has(p.id));
  });
});

describe("GET /api/products/featured, /{slug}, /by-id/{id}", () => {
  it("lists featured products by rank, best first", async () => {
    const featured = await api.json<Product[]>("/api/products/featured");
    const expected = api.db.$client.prepare("SELECT id FROM products WHERE is_featured = 1 ORDER BY rank, id LIMIT 12").all() as { id: number }[];
    expect(expected.length).toBeGreaterThan(2);
    expect(featured.map((p) => p.id)).toEqual(expected.map((row) => row.id));
    expect(featured.every((p) => p.isFeatured)).toBe(true);
    const ranks = featured.map((p) => p.rank);
    expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
    expect(ranks[0]).toBeLessThan(ranks.at(-1)!);
    expect(await api.json<Product[]>("/api/products/featured?limit=2")).toEqual(featured.slice(0, 2));
  });

  it("reads one product by slug and by id, with its offers", async () => {
    const [listed] = await api.json<Product[]>("/api/products?limit=1");
    // The detail adds the product's deal facts (their figures are tested in deal-truth.test.ts) and the
    // sizes of its family (api/test/pack-sizes.test.ts checks them).
    const { deal, sizes, ...bySlug } = await api.json<Product & { deal: unknown; sizes: unknown[] }>(`/api/products/${listed!.slug}`);
    expect(bySlug).toEqual(listed);
    expect(sizes).toEqual(expect.any(Array));
    expect(Object.keys(deal as object).sort()).toEqual(["isDeal", "lowest90Price", "lowestIn90Days", "typicalPrice", "wasPrice"]);
    expect((deal as { wasPrice: number | null }).wasPrice).toBe(listed!.originalPrice);
    expect(await api.json<Product>(`/api/products/by-id/${listed!.id}`)).toEqual(listed);
  });

  it("answers 404 with a JSON error for unknown ones", async () => {
    for (const path of ["/api/products/no-such-product", "/api/products/by-id/999999"]) {
      const response = await api.get(path);
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({ error: "Product not found" });
    }
  });
});

describe("GET /api/brands/counts", () => {
  type BrandCount = { brand: string; count: number };
  /** Products per brand, as the brand list must give them: by name, ignoring case. */
  const tally = (products: Product[]): BrandCount[] => {
    const counts = new Map<string, number>();
    for (const p of products) if (p.brand) counts.set(p.brand, (counts.get(p.brand) ?? 0) + 1);
    return [...counts].map(([brand, count]) => ({ brand, count })).sort((a, b) => a.brand.localeCompare(b.brand, "en", { sensitivity: "base" }));
  };

  it("lists every brand with its product count without parameters", async () => {
    expect(await api.json<BrandCount[]>("/api/brands/counts")).toEqual(tally(await all()));
  });

  it("counts a category's brands within a price range, a best price on either bound counted as the grid's filter counts it", async () => {
    const ten = await api.json<Product>(`/api/products/by-id/${edge.tenPounds}`);
    const twenty = await api.json<Product>(`/api/products/by-id/${edge.twentyPounds}`);
    expect([ten.bestPrice, twenty.bestPrice]).toEqual([10, 20]);
    for (const category of new Set([ten.category.slug, twenty.category.slug, "dog-food"])) {
      for (const range of ["minPrice=10&maxPrice=20", "minPrice=0&maxPrice=10", "minPrice=20", "minPrice=10.01&maxPrice=19.99", ""]) {
        const scope = `category=${category}${range ? `&${range}` : ""}`;
        const brands = await api.json<BrandCount[]>(`/api/brands/counts?${scope}`);
        expect(brands, scope).toEqual(tally(await all(scope)));
        for (const { brand, count } of brands.slice(0, 3)) {
          expect((await api.json<{ count: number }>(`/api/products/count?${scope}&brand=${encodeURIComponent(brand)}`)).count, `${scope} ${brand}`).toBe(count);
        }
      }
    }
    // The bounds are inclusive: the £10.00 product counts in 10-20 and in 0-10, not from 10.01.
    const countOf = async (scope: string, brand: string) => (await api.json<BrandCount[]>(`/api/brands/counts?${scope}`)).find((b) => b.brand === brand)?.count ?? 0;
    const tenScope = `category=${ten.category.slug}`;
    expect((await countOf(`${tenScope}&minPrice=10&maxPrice=20`, ten.brand!)) - (await countOf(`${tenScope}&minPrice=10.01&maxPrice=20`, ten.brand!))).toBe(1);
    expect(await countOf(`${tenScope}&minPrice=0&maxPrice=10`, ten.brand!)).toBeGreaterThanOrEqual(1);
    const twentyScope = `category=${twenty.category.slug}`;
    expect((await countOf(`${twentyScope}&minPrice=10&maxPrice=20`, twenty.brand!)) - (await countOf(`${twentyScope}&minPrice=10&maxPrice=19.99`, twenty.brand!))).toBe(1);
  });

  it("lists only the brands a category has: no cat-only brand among Dog Food's", async () => {
    const dogFood = await api.json<BrandCount[]>("/api/brands/counts?category=dog-food");
    const catFood = await api.json<BrandCount[]>("/api/brands/counts?category=cat-food");
    const catOnly = catFood.filter((c) => !dogFood.some((d) => d.brand === c.brand));
    expect(catOnly.length).toBeGreaterThan(0);
    expect(dogFood.length).toBeLessThan((await api.json<BrandCount[]>("/api/brands/counts")).length);
    expect(dogFood.every((b) => b.count > 0)).toBe(true);
  });

  it("narrows by retailer and by search text, as the grid and the search do", async () => {
    const retailers = await api.json<{ id: number; name: string }[]>("/api/retailers");
    const zooplus = retailers.find((r) => r.name === "Zooplus")!;
    expect(await api.json<BrandCount[]>(`/api/brands/counts?retailer=${zooplus.id}`)).toEqual(tally(await all(`retailer=${zooplus.id}`)));
    const search = await api.json<{ products: Product[]; total: number }>("/api/search?q=zanzibarian");
    expect(await api.json<BrandCount[]>("/api/brands/counts?q=zanzibarian")).toEqual(tally(search.products));
    expect(await api.json<BrandCount[]>("/api/brands/counts?q=zanzibarian")).toContainEqual({ brand: "Zanzibarian", count: 1 });
    const dogs = await api.json<{ products: Product[]; total: number }>("/api/search?q=dog&category=dog-food&limit=100");
    expect(dogs.total).toBeLessThanOrEqual(100);
    expect(await api.json<BrandCount[]>("/api/brands/counts?q=dog&category=dog-food")).toEqual(tally(dogs.products));
    expect(await api.json("/api/brands/counts?q=zzzzqqqq")).toEqual([]);
  });
});

describe("GET /api/brands", () => {
  it("answers a JSON array of every brand's name, by name, each once whatever its case", async () => {
    const names = await api.json<unknown[]>("/api/brands");
    const products = await all();
    const expected = [...new Map(products.filter((p) => p.brand).map((p) => [p.brand!.toLowerCase(), p.brand!])).values()].sort((a, b) =>
      a.localeCompare(b, "en", { sensitivity: "base" }),
    );
    expect(names).toEqual(expected);
    expect(names.every((name) => typeof name === "string")).toBe(true);
  });

  it("takes no parameters: a filter belongs to /api/brands/counts", async () => {
    const response = await api.get("/api/brands?category=dog-food");
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: 'Unknown query parameter "category": this endpoint takes no query parameters' });
  });
});

describe("GET /api/search", () => {
  it("finds by word prefixes, best match first", async () => {
    const { products, total } = await api.json<{ products: Product[]; total: number }>("/api/search?q=roy%20can");
    expect(total).toBeGreaterThan(0);
    expect(products.length).toBe(Math.min(15, total));
    for (const p of products) expect(p.name.toLowerCase()).toMatch(/royal canin/);
  });

  it("ranks a match in the name above one in the brand, and that above one in the description, whatever their rank", async () => {
    const { products, total } = await api.json<{ products: Product[]; total: number }>("/api/search?q=zanzibarian");
    expect(total).toBe(3);
    expect(products.map((p) => p.id)).toEqual([edge.nameMatch, edge.brandMatch, edge.descriptionMatch]);
    // Paging keeps that order.
    const second = await api.json<{ products: Product[] }>("/api/search?q=zanzibarian&offset=1&limit=1");
    expect(second.products.map((p) => p.id)).toEqual([edge.brandMatch]);
  });

  it("orders equally good matches by rank", async () => {
    const { products } = await api.json<{ products: Product[] }>("/api/search?q=quokka");
    expect(products.map((p) => p.id)).toEqual(edge.twins);
  });

  it("finds brands with apostrophes with or without them", async () => {
    const withApostrophe = await api.json<{ total: number }>("/api/search?q=hill's");
    const without = await api.json<{ total: number }>("/api/search?q=hills");
    expect(withApostrophe.total).toBeGreaterThan(0);
    expect(without.total).toBe(withApostrophe.total);
  });

  it("forgives a typo: a text that finds nothing is answered with its correction's matches, and says so", async () => {
    type Answer = { products: Product[]; total: number; suggestion: { q: string; label: string; total: number; applied: boolean } | null };
    const royal = await api.json<Answer>("/api/search?q=royal%20canin");
    expect(royal.suggestion).toBeNull();
    const typed = await api.json<Answer>("/api/search?q=royl%20canin");
    expect(typed.suggestion).toEqual({ q: "royal canin", label: "Royal Canin", total: royal.total, applied: true });
    expect(typed.total).toBe(royal.total);
    expect(typed.products.map((p) => p.id)).toEqual(royal.products.map((p) => p.id));

    const whiskas = await api.json<Answer>("/api/search?q=whiskas");
    expect(whiskas.total).toBeGreaterThan(0);
    const wiskas = await api.json<Answer>("/api/search?q=wiskas");
    expect(wiskas.suggestion).toEqual({ q: "whiskas", label: "Whiskas", total: whiskas.total, applied: true });
    expect(wiskas.products.map((p) => p.id)).toEqual(whiskas.products.map((p) => p.id));
    // With the grid's filters, the correction's matches are filtered as any search's.
    const filtered = await api.json<Answer>("/api/search?q=wiskas&category=cat-food&limit=100");
    expect(filtered.suggestion?.applied).toBe(true);
    expect(filtered.products.every((p) => p.category.slug === "cat-food")).toBe(true);
  });

  it("suggests beside a text that finds little, and says nothing for text that finds enough or is past correcting", async () => {
    type Answer = { products: Product[]; total: number; suggestion: { q: string; label: string; total: number; applied: boolean } | null };
    // "zanzibarian" finds its 3 edge products: enough.
    expect((await api.json<Answer>("/api/search?q=zanzibarian")).suggestion).toBeNull();
    // Nothing is close to this.
    const nonsense = await api.json<Answer>("/api/search?q=qwxzvbn");
    expect(nonsense).toEqual({ products: [], total: 0, suggestion: null });
    // A word one edit from a rare word that one product uses, and from a common one: the search
    // finds the one product, and the common word's correction is suggested beside it.
    const db = api.db.$client;
    db.prepare("UPDATE products SET name = 'Whiskaz Travel Bowl' WHERE id = ?").run(edge.twins[0]);
    try {
      await expect
        .poll(async () => (await api.json<Answer>("/api/search?q=whiskaz")).suggestion, { timeout: 5000 })
        .toEqual(expect.objectContaining({ q: "whiskas", label: "Whiskas", applied: false }));
      const little = await api.json<Answer>("/api/search?q=whiskaz");
      expect(little.products.map((p) => p.id)).toEqual([edge.twins[0]]);
      expect(little.suggestion!.total).toBeGreaterThan(1);
    } finally {
      db.prepare("UPDATE products SET name = 'Quokka Treat' WHERE id = ?").run(edge.twins[0]);
    }
  });

  it("matches category names and pages through all hits", async () => {
    const { total } = await api.json<{ total: number }>("/api/search?q=dog");
    const seen = new Set<number>();
    for (let offset = 0; offset < total; offset += 100) {
      const page = await api.json<{ products: Product[] }>(`/api/search?q=dog&limit=100&offset=${offset}`);
      for (const p of page.products) seen.add(p.id);
    }
    expect(seen.size).toBe(total);
  });

  /** Every hit of a search query string, paged through with limit=100. */
  async function searchAll(query: string): Promise<{ products: Product[]; total: number }> {
    const products: Product[] = [];
    for (let offset = 0; ; offset += 100) {
      const page = await api.json<{ products: Product[]; total: number }>(`/api/search?${query}&limit=100&offset=${offset}`);
      products.push(...page.products);
      if (offset + 100 >= page.total) return { products, total: page.total };
    }
  }
  const byPriceThenRank = (a: Product, b: Product) => (a.bestPrice ?? Infinity) - (b.bestPrice ?? Infinity) || a.rank - b.rank || a.id - b.id;

  it("narrows by the grid's filters, keeping the search order by default", async () => {
    const everything = await searchAll("q=cat");
    expect(everything.products).toHaveLength(everything.total);
    const counts = new Map<string, number>();
    for (const p of everything.products) if (p.brand) counts.set(p.brand, (counts.get(p.brand) ?? 0) + 1);
    const brand = [...counts].sort((a, b) => b[1] - a[1])[0]![0];
    expect(counts.get(brand)).toBeGreaterThan(1);
    const ofBrand = await searchAll(`q=cat&brand=${encodeURIComponent(brand.toUpperCase())}`);
    expect(ofBrand.products.map((p) => p.id)).toEqual(everything.products.filter((p) => p.brand === brand).map((p) => p.id));
    expect(ofBrand.total).toBe(counts.get(brand));
    // The category and the price range as the grid reads them: bounds inclusive, on the best price.
    const inRange = (p: Product) => p.category.slug === "cat-food" && p.bestPrice !== null && p.bestPrice >= 5 && p.bestPrice <= 20;
    const ranged = await searchAll("q=cat&category=cat-food&minPrice=5&maxPrice=20");
    expect(ranged.products.map((p) => p.id)).toEqual(everything.products.filter(inRange).map((p) => p.id));
    expect(ranged.total).toBeGreaterThan(0);
    // Relevance is the default sort, and may be named.
    expect(await api.json("/api/search?q=cat&category=cat-food&minPrice=5&maxPrice=20&sort=relevance&limit=100")).toEqual(
      await api.json("/api/search?q=cat&category=cat-food&minPrice=5&maxPrice=20&limit=100"),
    );
    expect((await api.json<{ products: Product[] }>("/api/search?q=cat&sort=relevance")).products.map((p) => p.id)).toEqual(
      everything.products.slice(0, 15).map((p) => p.id),
    );
  });

  it("sorts by the grid's orders: GET /api/search?q=cat&sort=price_asc&brand=...", async () => {
    const everything = await searchAll("q=cat");
    const brand = everything.products.find((p) => p.brand && everything.products.filter((o) => o.brand === p.brand).length > 2)!.brand!;
    const cheapest = await searchAll(`q=cat&sort=price_asc&brand=${encodeURIComponent(brand)}`);
    expect(cheapest.products.map((p) => p.id)).toEqual(everything.products.filter((p) => p.brand === brand).sort(byPriceThenRank).map((p) => p.id));
    const dearest = await api.json<{ products: Product[]; total: number }>("/api/search?q=cat&sort=price_desc&limit=5");
    expect(dearest.total).toBe(everything.total);
    const withPrice = everything.products.filter((p) => p.bestPrice !== null);
    expect(dearest.products.map((p) => p.id)).toEqual(withPrice.sort((a, b) => b.bestPrice! - a.bestPrice! || a.rank - b.rank || a.id - b.id).slice(0, 5).map((p) => p.id));
    // Pages of a sorted, filtered search fit together.
    const second = await api.json<{ products: Product[] }>(`/api/search?q=cat&sort=price_asc&brand=${encodeURIComponent(brand)}&offset=1&limit=1`);
    expect(second.products.map((p) => p.id)).toEqual([cheapest.products[1]!.id]);
    expect(await api.json(`/api/search?q=cat&sort=price_asc&brand=${encodeURIComponent(brand)}&offset=500`)).toEqual({ products: [], total: cheapest.total, suggestion: null });
    expect(await api.json("/api/search?q=zzzzqqqq&sort=price_asc&brand=Whiskas")).toEqual({ products: [], total: 0, suggestion: null });
    expect(await api.json("/api/search?q=cat&category=no-such-category")).toEqual({ products: [], total: 0, suggestion: null });
  });

  it("returns nothing for empty or symbol-only text, and treats FTS syntax as text", async () => {
    expect(await api.json("/api/search?q=")).toEqual({ products: [], total: 0, suggestion: null });
    expect(await api.json("/api/search")).toEqual({ products: [], total: 0, suggestion: null });
    expect(await api.json("/api/search?q=%22%20*%20(")).toEqual({ products: [], total: 0, suggestion: null });
    const response = await api.get(`/api/search?q=${encodeURIComponent('name:royal OR "x NEAR(a b)')}`);
    expect(response.status).toBe(200);
    expect(await api.json("/api/search?q=zzzzqqqq")).toEqual({ products: [], total: 0, suggestion: null });
  });
});
