import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ProductJson as Product } from "../../data/domain/catalogue-json.ts";
import { activeAlertLimit, favoriteLimit } from "../../data/domain/visitor.ts";
import { startTestServer, type TestServer } from "./server.ts";
import { recordPriceChecks } from "../../data/db/price-writer.ts";

let api: TestServer;
let products: Product[];
beforeAll(async () => {
  // More alerts than one client may set in an hour: the alert limit per visitor is what is tested here.
  api = await startTestServer({ products: 220, writeLimits: { mail: { max: 1000, windowMs: 60_000 } } });
  products = await api.json<Product[]>("/api/products?limit=60");
});
afterAll(() => api.close());

const alice = "user_aliceaaaaaaaaaaaaaaaaaaa";
const bob = "user_bobbbbbbbbbbbbbbbbbbbbbb";
const send = (method: string, path: string, body?: unknown) =>
  fetch(api.baseUrl + path, { method, headers: body === undefined ? {} : { "content-type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) });
const count = (sql: string, ...params: unknown[]) => (api.db.$client.prepare(sql).get(...params) as { n: number }).n;

async function expectError(response: Response, status: number, mentions: string) {
  expect(response.status).toBe(status);
  const body = (await response.json()) as { error: string };
  expect(Object.keys(body)).toEqual(["error"]);
  expect(body.error).toContain(mentions);
}

describe("favourites", () => {
  it("adds, reports, lists with the product, annotates and removes a favourite", async () => {
    const product = products[0]!;
    const created = await send("POST", "/api/favorites", { userId: alice, productId: product.id });
    expect(created.status).toBe(201);
    const favorite = (await created.json()) as { id: number; productId: number; notes: string | null };
    expect(favorite).toMatchObject({ productId: product.id, notes: null });

    expect(await api.json(`/api/is-favorite?userId=${alice}&productId=${product.id}`)).toEqual({ isFavorite: true, favoriteId: favorite.id });
    expect(await api.json(`/api/is-favorite?userId=${bob}&productId=${product.id}`)).toEqual({ isFavorite: false, favoriteId: null });

    const patched = await send("PATCH", `/api/favorites/${favorite.id}?userId=${alice}`, { notes: "  Rex loves the chicken one  " });
    expect(patched.status).toBe(200);
    expect(((await patched.json()) as { notes: string }).notes).toBe("Rex loves the chicken one");

    // A second visitor with a favourite of their own: each list holds its owner's rows only.
    const bobs = (await (await send("POST", "/api/favorites", { userId: bob, productId: products[10]!.id, notes: "Bob's" })).json()) as { id: number };
    const list = await api.json<{ id: number; userId: string; notes: string; product: Product }[]>(`/api/favorites?userId=${alice}`);
    expect(list).toHaveLength(1);
    expect(list[0]!.id).toBe(favorite.id);
    expect(list[0]!.userId).toBe(alice);
    expect(list[0]!.product).toEqual(product);
    expect(list[0]!.notes).toBe("Rex loves the chicken one");
    const bobsList = await api.json<{ id: number; notes: string; product: Product }[]>(`/api/favorites?userId=${bob}`);
    expect(bobsList.map((f) => [f.id, f.notes, f.product.id])).toEqual([[bobs.id, "Bob's", products[10]!.id]]);

    expect((await send("DELETE", `/api/favorites/${favorite.id}?userId=${alice}`)).status).toBe(204);
    expect(await api.json(`/api/favorites?userId=${alice}`)).toEqual([]);
    expect((await api.json<{ id: number }[]>(`/api/favorites?userId=${bob}`)).map((f) => f.id)).toEqual([bobs.id]);
    expect((await send("DELETE", `/api/favorites/${bobs.id}?userId=${bob}`)).status).toBe(204);
  });

  it("lists a visitor's favourites newest first", async () => {
    const erin = "user_erineeeeeeeeeeeeeeeeeeee";
    const ids: number[] = [];
    for (const product of products.slice(20, 23)) {
      ids.push(((await (await send("POST", "/api/favorites", { userId: erin, productId: product.id })).json()) as { id: number }).id);
    }
    expect((await api.json<{ id: number }[]>(`/api/favorites?userId=${erin}`)).map((f) => f.id)).toEqual([...ids].reverse());
  });

  it("clears a note with an empty one", async () => {
    const { id } = (await (await send("POST", "/api/favorites", { userId: alice, productId: products[24]!.id, notes: "first" })).json()) as { id: number; notes: string };
    expect(count("SELECT count(*) AS n FROM favorites WHERE id = ? AND notes = 'first'", id)).toBe(1);
    const cleared = await send("PATCH", `/api/favorites/${id}?userId=${alice}`, { notes: "" });
    expect(((await cleared.json()) as { notes: string | null }).notes).toBeNull();
    expect(count("SELECT count(*) AS n FROM favorites WHERE id = ? AND notes IS NULL", id)).toBe(1);
  });

  it("keeps one row when the same product is saved twice", async () => {
    const productId = products[1]!.id;
    const first = (await (await send("POST", "/api/favorites", { userId: alice, productId })).json()) as { id: number };
    const second = await send("POST", "/api/favorites", { userId: alice, productId });
    expect(second.status).toBe(200);
    expect(((await second.json()) as { id: number }).id).toBe(first.id);
    expect(count("SELECT count(*) AS n FROM favorites WHERE user_id = ? AND product_id = ?", alice, productId)).toBe(1);
  });

  it("lets nobody else remove or change a visitor's favourite", async () => {
    const { id } = (await (await send("POST", "/api/favorites", { userId: alice, productId: products[2]!.id })).json()) as { id: number };
    await expectError(await send("DELETE", `/api/favorites/${id}?userId=${bob}`), 404, "Favorite not found");
    await expectError(await send("PATCH", `/api/favorites/${id}?userId=${bob}`, { notes: "mine now" }), 404, "Favorite not found");
    await expectError(await send("DELETE", `/api/favorites/${id}`), 400, "userId");
    expect(count("SELECT count(*) AS n FROM favorites WHERE id = ? AND notes IS NULL", id)).toBe(1);
  });

  it.each([
    [{ productId: 1 }, "userId"],
    [{ userId: "robert", productId: 1 }, "userId"],
    [{ userId: alice }, "productId"],
    [{ userId: alice, productId: "1" }, "productId"],
    [{ userId: alice, productId: -4 }, "productId"],
    [{ userId: alice, productId: 999999 }, "unknown product"],
    [{ userId: alice, productId: 1, notes: "n".repeat(501) }, "notes"],
  ])("rejects POST %j and stores nothing", async (body, mentions) => {
    const before = count("SELECT count(*) AS n FROM favorites");
    await expectError(await send("POST", "/api/favorites", body), 400, mentions);
    expect(count("SELECT count(*) AS n FROM favorites")).toBe(before);
  });

  it("rejects bad reads and bad ids", async () => {
    await expectError(await send("GET", "/api/favorites"), 400, "userId");
    await expectError(await send("GET", "/api/favorites?userId=alice"), 400, "userId");
    await expectError(await send("GET", `/api/is-favorite?userId=${alice}&productId=abc`), 400, "productId");
    await expectError(await send("GET", `/api/is-favorite?productId=1`), 400, "userId");
    await expectError(await send("GET", `/api/is-favorite?userId=${alice}`), 400, "productId");
    await expectError(await send("DELETE", `/api/favorites/abc?userId=${alice}`), 400, "id");
    await expectError(await send("PATCH", `/api/favorites/1?userId=${alice}`, { notes: 5 }), 400, "notes");
  });

  it(`stops at ${favoriteLimit} favourites with a clear message`, async () => {
    const carol = "user_carolccccccccccccccccccc";
    const ids = (api.db.$client.prepare("SELECT id FROM products ORDER BY id").all() as { id: number }[]).map((r) => r.id);
    const insert = api.db.$client.prepare("INSERT INTO favorites (user_id, product_id) VALUES (?, ?)");
    for (const id of ids.slice(0, favoriteLimit)) insert.run(carol, id);
    await expectError(await send("POST", "/api/favorites", { userId: carol, productId: ids[favoriteLimit]! }), 400, `up to ${favoriteLimit} favourites`);
    expect(count("SELECT count(*) AS n FROM favorites WHERE user_id = ?", carol)).toBe(favoriteLimit);
    // Saving one already saved is still fine at the limit.
    expect((await send("POST", "/api/favorites", { userId: carol, productId: ids[0]! })).status).toBe(200);
    // Carol's favourites never count towards another visitor's limit.
    expect((await send("POST", "/api/favorites", { userId: "user_ivaniiiiiiiiiiiiiiiiiiii", productId: ids[favoriteLimit]! })).status).toBe(201);
  });
});

describe("the price when a favourite was saved", () => {
  type Listed = { id: number; savedPrice: number | null; product: Product };
  const bestPence = (productId: number) =>
    (api.db.$client.prepare("SELECT best_price_pence AS p FROM products WHERE id = ?").get(productId) as { p: number | null }).p;

  it("keeps the best price to the door at saving, while the list shows the product's price now", async () => {
    const carol = "user_carolsavedpriceaaaaaaaaa";
    const product = products[30]!;
    expect(product.bestPrice).not.toBeNull();
    const created = await send("POST", "/api/favorites", { userId: carol, productId: product.id });
    expect(created.status).toBe(201);
    const favorite = (await created.json()) as { id: number; savedPrice: number | null };
    // Stored as the product's best price (the lowest in-stock total to the door) at that moment.
    expect(favorite.savedPrice).toBe(product.bestPrice);
    expect(count("SELECT count(*) AS n FROM favorites WHERE id = ? AND saved_price_pence = ?", favorite.id, bestPence(product.id)!)).toBe(1);
    expect(Math.round(product.bestPrice! * 100)).toBe(bestPence(product.id));

    // The best offer's price falls by 1.50 through the catalogue writer's price side.
    const best = api.db.$client
      .prepare("SELECT retailer_id, price_pence FROM product_prices WHERE product_id = ? AND retailer_id = (SELECT best_retailer_id FROM products WHERE id = ?)")
      .get(product.id, product.id) as { retailer_id: number; price_pence: number };
    const { change } = recordPriceChecks(api.db, [{ productId: product.id, retailerId: best.retailer_id, pricePence: best.price_pence - 150, inStock: true, source: "page" }]);
    api.services.catalogueChanged(change);
    const [listed] = (await api.json<Listed[]>(`/api/favorites?userId=${carol}`)).filter((item) => item.id === favorite.id);
    expect(listed!.savedPrice).toBe(product.bestPrice);
    expect(Math.round((product.bestPrice! - listed!.product.bestPrice!) * 100)).toBe(150);

    // Saving it again keeps the first price: the move is since it was first saved.
    const again = await send("POST", "/api/favorites", { userId: carol, productId: product.id });
    expect(again.status).toBe(200);
    expect(((await again.json()) as { savedPrice: number }).savedPrice).toBe(product.bestPrice);
  });

  it("has no saved price for a favourite saved before prices were kept, or while nothing was in stock", async () => {
    const dave = "user_davesavedpriceaaaaaaaaaa";
    const [old, unpriced] = [products[31]!, products[32]!];
    const first = (await (await send("POST", "/api/favorites", { userId: dave, productId: old.id })).json()) as { id: number };
    // As a row from before this column existed.
    api.db.$client.prepare("UPDATE favorites SET saved_price_pence = NULL WHERE id = ?").run(first.id);
    const offers = api.db.$client.prepare("SELECT retailer_id, price_pence FROM product_prices WHERE product_id = ?").all(unpriced.id) as { retailer_id: number; price_pence: number }[];
    const { change } = recordPriceChecks(api.db, offers.map((offer) => ({ productId: unpriced.id, retailerId: offer.retailer_id, pricePence: offer.price_pence, inStock: false, source: "page" })));
    api.services.catalogueChanged(change);
    expect(bestPence(unpriced.id)).toBeNull();
    const second = (await (await send("POST", "/api/favorites", { userId: dave, productId: unpriced.id })).json()) as { id: number; savedPrice: number | null };
    expect(second.savedPrice).toBeNull();
    const listed = await api.json<Listed[]>(`/api/favorites?userId=${dave}`);
    expect(listed.map((item) => [item.id, item.savedPrice])).toEqual([
      [second.id, null],
      [first.id, null],
    ]);
  });

  it("takes the saved price from the catalogue, never from the request, and refuses bad input without saving anything", async () => {
    const erin = "user_erinsavedpriceaaaaaaaaaa";
    const product = products[33]!;
    const created = (await (await send("POST", "/api/favorites", { userId: erin, productId: product.id, savedPrice: 0.01 })).json()) as { id: number; savedPrice: number };
    expect(created.savedPrice).toBe(product.bestPrice);
    expect((await send("DELETE", `/api/favorites/${created.id}?userId=${erin}`)).status).toBe(204);
    await expectError(await send("POST", "/api/favorites", { userId: erin, productId: 99_999_999 }), 400, "unknown product");
    await expectError(await send("GET", "/api/visitor-counts?userId=nobody"), 400, "userId");
    expect(count("SELECT count(*) AS n FROM favorites WHERE user_id = ?", erin)).toBe(0);
  });
});

describe("a visitor's counts (the header's badges)", () => {
  it("counts the visitor's own favourites and active alerts, and nobody else's", async () => {
    const hugo = "user_hugocountsaaaaaaaaaaaaaa";
    const ivy = "user_ivycountsaaaaaaaaaaaaaaa";
    const counts = (userId: string) => api.json<{ favorites: number; alerts: number }>(`/api/visitor-counts?userId=${userId}`);
    expect(await counts(hugo)).toEqual({ favorites: 0, alerts: 0 });
    for (const product of products.slice(40, 43)) expect((await send("POST", "/api/favorites", { userId: hugo, productId: product.id })).status).toBe(201);
    const alerts: { id: number }[] = [];
    for (const product of products.slice(40, 42)) {
      alerts.push((await (await send("POST", "/api/price-alerts", { userId: hugo, productId: product.id, email: "h@example.com", targetPrice: 1 })).json()) as { id: number });
    }
    expect((await send("POST", "/api/favorites", { userId: ivy, productId: products[40]!.id })).status).toBe(201);
    expect(await counts(hugo)).toEqual({ favorites: 3, alerts: 2 });
    // A switched-off alert is not counted, as the alerts page does not list it.
    api.db.$client.prepare("UPDATE price_alerts SET is_active = 0 WHERE id = ?").run(alerts[0]!.id);
    expect(await counts(hugo)).toEqual({ favorites: 3, alerts: 1 });
    expect(await counts(ivy)).toEqual({ favorites: 1, alerts: 0 });
    await expectError(await send("GET", "/api/visitor-counts"), 400, "userId is required");
  });
});

describe("price alerts", () => {
  it("creates an alert with the product's price and status, lists it and deletes it", async () => {
    const product = products.find((p) => p.bestPrice !== null && p.bestPrice > 2)!;
    const response = await send("POST", "/api/price-alerts", { userId: alice, productId: product.id, email: "Alice@Example.com", targetPrice: 1.5 });
    expect(response.status).toBe(201);
    const alert = (await response.json()) as { id: number; targetPrice: number; email: string; status: string; product: { name: string; slug: string; bestPrice: number } };
    expect(alert).toMatchObject({
      isActive: true,
      userId: alice,
      productId: product.id,
      targetPrice: 1.5,
      email: "alice@example.com",
      status: "Waiting for drop",
      product: { name: product.name, slug: product.slug, bestPrice: product.bestPrice },
      // A new address waits for its confirmation link before anything about prices is mailed.
      state: "pending_confirmation",
      confirmationSent: true,
    });
    // A second visitor with an alert of their own: each list holds its owner's alerts only.
    const bobs = (await (await send("POST", "/api/price-alerts", { userId: bob, productId: products[11]!.id, email: "bob@example.com", targetPrice: 2 })).json()) as {
      id: number;
    };
    const list = await api.json<{ id: number; userId: string }[]>(`/api/price-alerts?userId=${alice}`);
    expect(list.map((a) => [a.id, a.userId])).toEqual([[alert.id, alice]]);
    expect(list[0]).toMatchObject({ state: "pending_confirmation" });
    expect(list[0]).not.toHaveProperty("confirmationSent");
    expect((await api.json<{ id: number }[]>(`/api/price-alerts?userId=${bob}`)).map((a) => a.id)).toEqual([bobs.id]);
    expect((await send("DELETE", `/api/price-alerts/${bobs.id}?userId=${bob}`)).status).toBe(204);

    // A target at or above the current best price is already reached.
    const reached = (await (await send("POST", "/api/price-alerts", { userId: alice, productId: products[3]!.id, email: "alice@example.com", targetPrice: 99999 })).json()) as { status: string };
    expect(reached.status).toBe("Price reached!");

    await expectError(await send("DELETE", `/api/price-alerts/${alert.id}?userId=${bob}`), 404, "Price alert not found");
    await expectError(await send("DELETE", `/api/price-alerts/${alert.id}`), 400, "userId");
    expect(count("SELECT count(*) AS n FROM price_alerts WHERE id = ?", alert.id)).toBe(1);
    expect((await send("DELETE", `/api/price-alerts/${alert.id}?userId=${alice}`)).status).toBe(204);
    expect(count("SELECT count(*) AS n FROM price_alerts WHERE id = ?", alert.id)).toBe(0);
    expect((await api.json<{ id: number }[]>(`/api/price-alerts?userId=${alice}`)).map((a) => a.id)).not.toContain(alert.id);
  });

  it("updates the visitor's alert for the same product and address instead of adding another", async () => {
    const body = { userId: bob, productId: products[4]!.id, email: "bob@example.com", targetPrice: 3 };
    const first = (await (await send("POST", "/api/price-alerts", body)).json()) as { id: number };
    const second = await send("POST", "/api/price-alerts", { ...body, targetPrice: 2.5 });
    expect(second.status).toBe(200);
    expect(((await second.json()) as { id: number; targetPrice: number })).toMatchObject({ id: first.id, targetPrice: 2.5 });
    expect(count("SELECT count(*) AS n FROM price_alerts WHERE user_id = ? AND product_id = ?", bob, products[4]!.id)).toBe(1);
  });

  it.each([
    [{ productId: 1, email: "a@b.co", targetPrice: 5 }, "userId"],
    [{ userId: "user_x", productId: 1, email: "a@b.co", targetPrice: 5 }, "userId"],
    [{ userId: alice, email: "a@b.co", targetPrice: 5 }, "productId"],
    [{ userId: alice, productId: 999999, email: "a@b.co", targetPrice: 5 }, "unknown product"],
    [{ userId: alice, productId: 1, targetPrice: 5 }, "email"],
    [{ userId: alice, productId: 1, email: "not an email", targetPrice: 5 }, "Please enter a valid email address"],
    [{ userId: alice, productId: 1, email: "a@b.co" }, "Please enter a valid price"],
    [{ userId: alice, productId: 1, email: "a@b.co", targetPrice: 0 }, "Please enter a valid price"],
    [{ userId: alice, productId: 1, email: "a@b.co", targetPrice: -1 }, "Please enter a valid price"],
    [{ userId: alice, productId: 1, email: "a@b.co", targetPrice: "abc" }, "Please enter a valid price"],
    [{ userId: alice, productId: 1, email: "a@b.co", targetPrice: 1e12 }, "Please enter a valid price"],
    [{ userId: alice, productId: 1, email: "a@b.co", targetPrice: 9.999 }, "Please enter a valid price"],
  ])("rejects %j and stores nothing", async (body, mentions) => {
    const before = count("SELECT count(*) AS n FROM price_alerts");
    await expectError(await send("POST", "/api/price-alerts", body), 400, mentions);
    expect(count("SELECT count(*) AS n FROM price_alerts")).toBe(before);
  });

  it("lists a visitor's alerts newest first, with the status on the boundary", async () => {
    const frank = "user_frankfffffffffffffffffff";
    const product = products.find((p) => p.bestPrice !== null && p.bestPrice > 1)!;
    const onTarget = (await (await send("POST", "/api/price-alerts", { userId: frank, productId: product.id, email: "f@example.com", targetPrice: product.bestPrice })).json()) as {
      id: number;
      status: string;
    };
    // Exactly on the best price is reached; a penny below is still waiting.
    expect(onTarget.status).toBe("Price reached!");
    const below = (await (
      await send("POST", "/api/price-alerts", { userId: frank, productId: products[12]!.id, email: "f@example.com", targetPrice: Math.round(products[12]!.bestPrice! * 100 - 1) / 100 })
    ).json()) as { id: number; status: string };
    expect(below.status).toBe("Waiting for drop");
    const list = await api.json<{ id: number; status: string }[]>(`/api/price-alerts?userId=${frank}`);
    expect(list.map((a) => [a.id, a.status])).toEqual([
      [below.id, "Waiting for drop"],
      [onTarget.id, "Price reached!"],
    ]);
  });

  it("leaves switched-off alerts out of the list", async () => {
    const gina = "user_ginagggggggggggggggggggg";
    const kept = (await (await send("POST", "/api/price-alerts", { userId: gina, productId: products[13]!.id, email: "g@example.com", targetPrice: 1 })).json()) as { id: number };
    const off = (await (await send("POST", "/api/price-alerts", { userId: gina, productId: products[14]!.id, email: "g@example.com", targetPrice: 1 })).json()) as { id: number };
    api.db.$client.prepare("UPDATE price_alerts SET is_active = 0 WHERE id = ?").run(off.id);
    expect((await api.json<{ id: number }[]>(`/api/price-alerts?userId=${gina}`)).map((a) => a.id)).toEqual([kept.id]);
    // Setting the same alert again makes a new active one rather than reviving the switched-off row.
    const again = await send("POST", "/api/price-alerts", { userId: gina, productId: products[14]!.id, email: "g@example.com", targetPrice: 1 });
    expect(again.status).toBe(201);
  });

  it(`stops at ${activeAlertLimit} active alerts with a clear message, not counting switched-off ones`, async () => {
    const dave = "user_davedddddddddddddddddddd";
    const insert = api.db.$client.prepare(
      "INSERT INTO price_alerts (user_id, product_id, email, target_price_pence, is_active) VALUES (?, ?, 'dave@example.com', 100, ?)",
    );
    // Three switched-off alerts (unsubscribed from their mails) and one short of the limit of active ones.
    for (const product of products.slice(activeAlertLimit + 2, activeAlertLimit + 5)) insert.run(dave, product.id, 0);
    for (const product of products.slice(0, activeAlertLimit - 1)) insert.run(dave, product.id, 1);
    const last = await send("POST", "/api/price-alerts", { userId: dave, productId: products[activeAlertLimit - 1]!.id, email: "dave@example.com", targetPrice: 1 });
    expect(last.status).toBe(201);
    expect(count("SELECT count(*) AS n FROM price_alerts WHERE user_id = ? AND is_active = 1", dave)).toBe(activeAlertLimit);
    // Another visitor's alerts never count towards dave's limit, and dave's never towards theirs.
    expect((await send("POST", "/api/price-alerts", { userId: "user_helenhhhhhhhhhhhhhhhhhhh", productId: products[0]!.id, email: "h@example.com", targetPrice: 1 })).status).toBe(201);
    await expectError(
      await send("POST", "/api/price-alerts", { userId: dave, productId: products[activeAlertLimit]!.id, email: "dave@example.com", targetPrice: 1 }),
      400,
      `up to ${activeAlertLimit} price alerts`,
    );
    expect(count("SELECT count(*) AS n FROM price_alerts WHERE user_id = ? AND is_active = 1", dave)).toBe(activeAlertLimit);
    // Changing an alert dave already has is still fine at the limit.
    expect((await send("POST", "/api/price-alerts", { userId: dave, productId: products[0]!.id, email: "dave@example.com", targetPrice: 2 })).status).toBe(200);
  });

  it("rejects bad reads and bad ids", async () => {
    await expectError(await send("GET", "/api/price-alerts"), 400, "userId");
    await expectError(await send("GET", "/api/price-alerts?userId=robert"), 400, "userId");
    await expectError(await send("DELETE", `/api/price-alerts/0?userId=${alice}`), 400, "id");
    await expectError(await send("DELETE", `/api/price-alerts/abc?userId=${alice}`), 400, "id");
  });
});
