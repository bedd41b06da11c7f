/**
 * The catalogue writer over a real SQLite file: what each write stores, the price history it
 * appends, the best price it derives, what it reports as changed, and that a refused or failing
 * write stores nothing at all.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WriteRefused } from "./catalogue-writer/transaction.ts";
import { createProduct, updateProduct } from "./catalogue-writer/products.ts";
import { deleteCategory } from "./catalogue-writer/categories.ts";
import { updateRetailer } from "./catalogue-writer/retailers.ts";
import { offerUrl, tempDb, withoutDelivery, type TempDb } from "./fixtures/temp-db.ts";
import { catalogueRevision } from "./catalogue-revision.ts";
import { productInput, type ProductInput } from "../domain/catalogue-input.ts";

let temp: TempDb;
let retailers: number[];
let categories: number[];

beforeAll(async () => {
  temp = await tempDb(10);
  // Item prices are set and read back as best prices here: no delivery on top (totals to the door are tested in data/db/offers.test.ts).
  withoutDelivery(temp.db);
  retailers = (temp.db.$client.prepare("SELECT id FROM retailers WHERE compares_prices = 1 ORDER BY id").all() as { id: number }[]).map((r) => r.id);
  categories = (temp.db.$client.prepare("SELECT id FROM categories ORDER BY id").all() as { id: number }[]).map((r) => r.id);
});
afterAll(() => temp.remove());

const rows = <T>(sql: string, ...params: unknown[]) => temp.db.$client.prepare(sql).all(...params) as T[];
const row = <T>(sql: string, ...params: unknown[]) => temp.db.$client.prepare(sql).get(...params) as T;

interface Link {
  retailer: number;
  price: number;
  original?: number | null;
  inStock?: boolean;
  override?: number | null;
}

function input(name: string, links: Link[], extra: Record<string, unknown> = {}): ProductInput {
  return productInput.parse({
    name,
    categoryId: categories[0],
    retailerLinks: links.map((link) => ({
      retailerId: retailers[link.retailer],
      affiliateUrl: offerUrl(temp.db, retailers[link.retailer], "p"),
      price: link.price,
      originalPrice: link.original ?? null,
      inStock: link.inStock ?? true,
      priceOverride: link.override !== undefined && link.override !== null,
      manualPrice: link.override ?? null,
    })),
    ...extra,
  });
}

const best = (id: number) => row("SELECT best_price_pence AS price, best_retailer_id AS retailer, original_price_pence AS original FROM products WHERE id = ?", id);
const history = (id: number) => rows("SELECT retailer_id AS retailer, price_pence AS price FROM price_history WHERE product_id = ? ORDER BY id", id);

describe("best price", () => {
  it("is the lowest in-stock effective price; a tie goes to the lower retailer id; out of stock never counts", () => {
    const { value, change } = createProduct(temp.db, input("Tie Treats", [
      { retailer: 1, price: 5, original: 6 },
      { retailer: 0, price: 5, original: 7 },
      { retailer: 2, price: 4, inStock: false },
    ]));
    // The offers' own was-prices (6.00, 7.00) are claims no price history supports yet: no original price.
    expect(best(value.id)).toEqual({ price: 500, retailer: retailers[0], original: null });
    expect(change).toEqual({ productIds: [value.id], categoryIds: [categories[0]], siteWide: false, revisions: [catalogueRevision(temp.db)] });
  });

  it("uses the manual price under override, and records history when only the override changes", () => {
    const { value } = createProduct(temp.db, input("Override Oats", [{ retailer: 0, price: 10 }, { retailer: 1, price: 9 }]));
    expect(best(value.id)).toEqual({ price: 900, retailer: retailers[1], original: null });
    updateProduct(temp.db, value.id, input("Override Oats", [{ retailer: 0, price: 10, override: 8.5 }, { retailer: 1, price: 9 }]));
    expect(best(value.id)).toEqual({ price: 850, retailer: retailers[0], original: null });
    // The listed price stayed 10.00; the price a shopper pays moved, so history has a point for it.
    expect(history(value.id)).toEqual([
      { retailer: retailers[0], price: 1000 },
      { retailer: retailers[1], price: 900 },
      { retailer: retailers[0], price: 850 },
    ]);
    // A stock change alone moves the best price but adds no history point.
    updateProduct(temp.db, value.id, input("Override Oats", [{ retailer: 0, price: 10, override: 8.5, inStock: false }, { retailer: 1, price: 9 }]));
    expect(best(value.id)).toEqual({ price: 900, retailer: retailers[1], original: null });
    expect(history(value.id)).toHaveLength(3);
  });

  it("is none when nothing is in stock, and offers left out of an update are removed", () => {
    const { value } = createProduct(temp.db, input("Gone Gravy", [{ retailer: 0, price: 3 }, { retailer: 1, price: 2 }]));
    updateProduct(temp.db, value.id, input("Gone Gravy", [{ retailer: 0, price: 3, inStock: false }]));
    expect(best(value.id)).toEqual({ price: null, retailer: null, original: null });
    expect(rows("SELECT retailer_id FROM product_prices WHERE product_id = ?", value.id)).toEqual([{ retailer_id: retailers[0] }]);
  });

  it("per kg follows the pack size in the name: a rename that changes the pack re-derives it, one that drops it clears it", () => {
    const perKg = (id: number) => row<{ perKg: number | null }>("SELECT best_price_per_kg_pence AS perKg FROM products WHERE id = ?", id).perKg;
    const { value } = createProduct(temp.db, input("Rename Kibble 12kg", [{ retailer: 0, price: 45.99 }]));
    // 4599 / 12 = 383.25
    expect(perKg(value.id)).toBe(383);
    // 4599 / 2 = 2299.5, a half rounded up
    updateProduct(temp.db, value.id, input("Rename Kibble 2kg", [{ retailer: 0, price: 45.99 }], { slug: "rename-kibble-12kg" }));
    expect(perKg(value.id)).toBe(2300);
    updateProduct(temp.db, value.id, input("Rename Kibble Large", [{ retailer: 0, price: 45.99 }], { slug: "rename-kibble-12kg" }));
    expect(perKg(value.id)).toBeNull();
  });
});

describe("a retailer's delivery rule", () => {
  it("re-derives the best price of every product sold there, reports them as changed, and keeps the rule when an update leaves it out", () => {
    const { value } = createProduct(temp.db, input("Rule Rusks", [{ retailer: 0, price: 10 }, { retailer: 1, price: 11 }]));
    const { value: elsewhere } = createProduct(temp.db, input("Other Oats", [{ retailer: 1, price: 4 }]));
    expect(best(value.id)).toEqual({ price: 1000, retailer: retailers[0], original: null });
    const stored = temp.db.$client.prepare("SELECT name, logo, website, description FROM retailers WHERE id = ?").get(retailers[0]) as {
      name: string; logo: string; website: string; description: string;
    };
    const base = { ...stored, logo: "/retailers/test.svg", comparesPrices: true };
    try {
      // 10.00 + 2.50 = 12.50 loses to 11.00 delivered with no known charge.
      const { change } = updateRetailer(temp.db, retailers[0]!, { ...base, deliveryCharge: 250, freeDeliveryFrom: 2000 });
      expect(best(value.id)).toEqual({ price: 1100, retailer: retailers[1], original: null });
      expect(change.siteWide).toBe(true);
      expect(change.productIds).toContain(value.id);
      expect(change.productIds).not.toContain(elsewhere.id);
      // Left out: kept. A threshold at the item price makes it free again.
      updateRetailer(temp.db, retailers[0]!, { ...base, logo: "/retailers/test2.svg" });
      expect(temp.db.$client.prepare("SELECT delivery_pence AS d, free_delivery_from_pence AS f FROM retailers WHERE id = ?").get(retailers[0])).toEqual({ d: 250, f: 2000 });
      const free = updateRetailer(temp.db, retailers[0]!, { ...base, logo: "/retailers/test2.svg", freeDeliveryFrom: 1000 });
      expect(best(value.id)).toEqual({ price: 1000, retailer: retailers[0], original: null });
      expect(free.change.productIds).toContain(value.id);
      // A change that leaves the rule alone reprices nothing.
      const renamed = updateRetailer(temp.db, retailers[0]!, { ...base, logo: "/retailers/test3.svg" });
      expect(renamed.change.productIds).toEqual([]);
    } finally {
      withoutDelivery(temp.db);
    }
  });
});

describe("a product's family", () => {
  const family = (id: number) => row<{ family: string | null }>("SELECT family_key AS family FROM products WHERE id = ?", id).family;

  it("is stored from the admin's input, kept when an update leaves it out, cleared with null, and audited", () => {
    const small = createProduct(temp.db, input("Family Kibble 2kg", [{ retailer: 0, price: 9 }], { familyKey: "family-kibble" })).value;
    const large = createProduct(temp.db, input("Family Kibble 12kg", [{ retailer: 0, price: 40 }], { familyKey: "family-kibble" })).value;
    const none = createProduct(temp.db, input("Familyless Kibble 2kg", [{ retailer: 0, price: 9 }])).value;
    expect([family(small.id), family(large.id), family(none.id)]).toEqual(["family-kibble", "family-kibble", null]);

    // Left out: kept (and nothing else changed, so nothing to report).
    const kept = updateProduct(temp.db, large.id, input("Family Kibble 12kg", [{ retailer: 0, price: 40 }]));
    expect(family(large.id)).toBe("family-kibble");
    expect(kept.change.productIds).toEqual([]);

    // Moved to another family: the size left behind is reported too (its page lists the sizes).
    const moved = updateProduct(temp.db, large.id, input("Family Kibble 12kg", [{ retailer: 0, price: 40 }], { familyKey: "other-kibble" }));
    expect(family(large.id)).toBe("other-kibble");
    expect([...moved.change.productIds].sort((a, b) => a - b)).toEqual([small.id, large.id].sort((a, b) => a - b));
    const audit = row<{ before: string; after: string }>("SELECT before, after FROM audit_log WHERE entity = 'product' AND entity_id = ? ORDER BY id DESC LIMIT 1", large.id);
    expect(JSON.parse(audit.before)).toMatchObject({ familyKey: "family-kibble" });
    expect(JSON.parse(audit.after)).toMatchObject({ familyKey: "other-kibble" });

    // Cleared: alone, nothing left behind.
    const cleared = updateProduct(temp.db, large.id, input("Family Kibble 12kg", [{ retailer: 0, price: 40 }], { familyKey: null }));
    expect(family(large.id)).toBeNull();
    expect(cleared.change.productIds).toEqual([large.id]);
    // "" is none as well.
    updateProduct(temp.db, small.id, input("Family Kibble 2kg", [{ retailer: 0, price: 9 }], { familyKey: "" }));
    expect(family(small.id)).toBeNull();
  });

  it("refuses a family key that is not a slug", () => {
    expect(productInput.safeParse({ name: "X", categoryId: 1, familyKey: "Royal Canin" }).success).toBe(false);
    expect(productInput.safeParse({ name: "X", categoryId: 1, familyKey: "royal--canin" }).success).toBe(false);
    expect(productInput.safeParse({ name: "X", categoryId: 1, familyKey: "x".repeat(201) }).success).toBe(false);
    expect(productInput.parse({ name: "X", categoryId: 1, familyKey: "x".repeat(200) }).familyKey).toBe("x".repeat(200));
    expect(productInput.parse({ name: "X", categoryId: 1 }).familyKey).toBeUndefined();
  });
});

describe("what a write reports as changed", () => {
  it("names the old and the new category when a product moves, and a new slug is site-wide (the old page must go)", () => {
    const { value } = createProduct(temp.db, input("Moving Mix", [{ retailer: 0, price: 1 }]));
    const moved = updateProduct(temp.db, value.id, input("Moving Mix", [{ retailer: 0, price: 1 }], { categoryId: categories[1] }));
    expect(moved.change).toEqual({ productIds: [value.id], categoryIds: [categories[0], categories[1]], siteWide: false, revisions: [catalogueRevision(temp.db)] });
    const renamed = updateProduct(temp.db, value.id, input("Moving Mix", [{ retailer: 0, price: 1 }], { categoryId: categories[1], slug: "moving-mix-2" }));
    expect(renamed.change.siteWide).toBe(true);
  });
});

describe("the catalogue revision", () => {
  it("moves with every write that changed something (and with the seed), not with a save that changed nothing", () => {
    // The seed wrote the catalogue: the revision is past zero.
    expect(catalogueRevision(temp.db)).toBeGreaterThan(0);
    const before = catalogueRevision(temp.db);
    const { value } = createProduct(temp.db, input("Revision Rolls", [{ retailer: 0, price: 2 }]));
    expect(catalogueRevision(temp.db)).toBe(before + 1);
    updateProduct(temp.db, value.id, input("Revision Rolls", [{ retailer: 0, price: 2 }]));
    expect(catalogueRevision(temp.db)).toBe(before + 1);
    updateProduct(temp.db, value.id, input("Revision Rolls", [{ retailer: 0, price: 2.5 }]));
    expect(catalogueRevision(temp.db)).toBe(before + 2);
  });
});

describe("refused writes store nothing", () => {
  const digest = () => JSON.stringify([rows("SELECT * FROM products ORDER BY id"), rows("SELECT * FROM product_prices ORDER BY id"), rows("SELECT * FROM price_history ORDER BY id"), rows("SELECT * FROM audit_log ORDER BY id")]);

  it("an unknown category, a taken slug or a retailer whose prices are not compared: 4xx, nothing written", () => {
    const before = digest();
    const voucherOnly = row<{ id: number }>("SELECT id FROM retailers WHERE compares_prices = 0 ORDER BY id LIMIT 1").id;
    const cases: [() => unknown, number, RegExp][] = [
      [() => createProduct(temp.db, input("Nope", [{ retailer: 0, price: 1 }], { categoryId: 987654 })), 400, /unknown category/],
      [() => createProduct(temp.db, input("Tie Treats", [{ retailer: 0, price: 1 }])), 409, /slug "tie-treats" already exists/],
      [
        () => createProduct(temp.db, { ...input("Voucher Only", []), retailerLinks: [{ ...input("x", [{ retailer: 0, price: 1 }]).retailerLinks[0]!, retailerId: voucherOnly }] }),
        400,
        /prices are not compared at .+; turn on price comparison for it first/,
      ],
      [() => deleteCategory(temp.db, categories[0]!), 409, /still has \d+ products; move or delete them first/],
    ];
    for (const [write, status, message] of cases) {
      let error: unknown;
      try {
        write();
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(WriteRefused);
      expect((error as WriteRefused).status).toBe(status);
      expect((error as WriteRefused).message).toMatch(message);
    }
    expect(digest()).toBe(before);
  });

  it("a write that fails half-way (after the product row) is rolled back whole", () => {
    const before = digest();
    // A trigger makes the offer insert fail after the product row was written in the same transaction.
    temp.db.$client.exec("CREATE TEMP TRIGGER fail_offer BEFORE INSERT ON product_prices BEGIN SELECT RAISE(ABORT, 'disk full'); END");
    try {
      expect(() => createProduct(temp.db, input("Half Written", [{ retailer: 0, price: 1 }]))).toThrow(/disk full/);
    } finally {
      temp.db.$client.exec("DROP TRIGGER fail_offer");
    }
    expect(digest()).toBe(before);
    expect(temp.db.$client.inTransaction).toBe(false);
  });
});
